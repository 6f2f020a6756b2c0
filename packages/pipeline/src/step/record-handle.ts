import { notificationKey, partitionOfId } from '@notify/core';

/** The notification a step job works on: its id, partition and record key, computed once per job and passed down. */
export interface RecordHandle {
  readonly id: string;
  readonly partition: number;
  /** The record hash. */
  readonly key: string;
}

/** `partitions`: PARTITIONS (the queues' count): the id's partition names every key of it. */
export function recordHandle(id: string, partitions: number): RecordHandle {
  const partition = partitionOfId(id, partitions);
  return { id, partition, key: notificationKey(id, partition) };
}
