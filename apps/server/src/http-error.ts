import type { FieldError } from '@herald/contracts';

/** A rule broken by the request, mapped by the one error handler to its status and the one error shape. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  /** A 4xx about one field: the message names it, and `errors` carries it for forms. */
  static field(statusCode: number, field: string, message: string): HttpError {
    return new HttpError(statusCode, message, [{ field, message }]);
  }
}
