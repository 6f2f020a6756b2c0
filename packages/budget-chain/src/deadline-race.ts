/** What racing needs of a deadline: its reason once aborted, and a callback on abort. */
export interface AbortSource {
  readonly reason: Error | undefined;
  onAbort(callback: (reason: Error) => void): () => void;
}

/**
 * Settles with `work`, or rejects with the source's reason as soon as it aborts; a late
 * rejection of the abandoned work is swallowed. The abort callback is removed either way, so
 * a long-lived deadline keeps no link to a race that ended.
 */
export function raceAbort<T>(source: AbortSource, work: Promise<T>): Promise<T> {
  const aborted = source.reason;
  if (aborted !== undefined) {
    work.catch(() => undefined);
    return Promise.reject(aborted);
  }
  return new Promise<T>((resolve, reject) => {
    const off = source.onAbort((reason) => {
      work.catch(() => undefined);
      reject(reason);
    });
    work.then(
      (value) => {
        off();
        resolve(value);
      },
      (error: unknown) => {
        off();
        reject(error);
      },
    );
  });
}
