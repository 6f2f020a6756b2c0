import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { inOrder } from './middleware-chain';

const req = {} as Request;
const res = {} as Response;

function run(handler: RequestHandler): { calls: unknown[][] } {
  const calls: unknown[][] = [];
  void handler(req, res, ((...args: unknown[]) => calls.push(args)) as NextFunction);
  return { calls };
}

describe('inOrder', () => {
  it('runs the middlewares in order, then next() once', () => {
    const seen: string[] = [];
    const mark =
      (name: string): RequestHandler =>
      (_q, _s, next) => {
        seen.push(name);
        next();
      };
    const { calls } = run(inOrder(mark('a'), mark('b'), mark('c')));
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([[]]);
  });

  it('stops at the first error and hands it to next(error)', () => {
    const seen: string[] = [];
    const failure = new Error('no key');
    const { calls } = run(
      inOrder(
        (_q, _s, next) => {
          seen.push('a');
          next(failure);
        },
        (_q, _s, next) => {
          seen.push('b');
          next();
        },
      ),
    );
    expect(seen).toEqual(['a']);
    expect(calls).toEqual([[failure]]);
  });

  it('continues when a middleware calls next later (a body read)', async () => {
    let release: () => void = () => undefined;
    const later = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const { calls } = run(
      inOrder(
        (_q, _s, next) => {
          void later.then(() => next());
        },
        (_q, _s, next) => {
          seen.push('after the read');
          next();
        },
      ),
    );
    expect(calls).toEqual([]);
    release();
    await later;
    await Promise.resolve();
    expect(seen).toEqual(['after the read']);
    expect(calls).toEqual([[]]);
  });

  it('lets a synchronous throw reach the caller (Express catches it around the layer)', () => {
    const chain = inOrder(() => {
      throw new Error('boom');
    });
    expect(() => run(chain)).toThrow('boom');
  });
});
