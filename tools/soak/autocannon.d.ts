// The parts of autocannon's programmatic API the load test uses; the package ships no types.
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }

    interface RequestStep {
      /** Returns the request to send; autocannon encodes it afresh each time. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      onResponse?: (
        status: number,
        body: string,
        context: Record<string, unknown>,
        headers: Record<string, string>,
      ) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      /** Seconds to wait for a response. */
      timeout?: number;
      requests?: RequestStep[];
    }

    interface Result {
      /** `sent`: requests sent, answered or not; `total`: requests answered. */
      requests: { sent: number; total: number };
      errors: number;
      timeouts: number;
      non2xx: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      duration: number;
    }

    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
