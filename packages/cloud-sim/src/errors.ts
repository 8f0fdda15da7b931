import { randomAlphanumeric } from './random-strings';

/** Meta's error envelope: every Graph failure answers with this shape. */
export interface GraphErrorBody {
  error: {
    message: string;
    type: string;
    code: number;
    error_subcode?: number;
    error_data?: { messaging_product: 'whatsapp'; details: string };
    is_transient?: boolean;
    error_user_title?: string;
    error_user_msg?: string;
    fbtrace_id: string;
  };
}

interface GraphErrorOptions {
  type?: string;
  subcode?: number;
  details?: string;
  /** Meta's text meant for the end user (template validation errors carry it). */
  userTitle?: string;
  userMessage?: string;
}

export class GraphError extends Error {
  readonly type: string;
  readonly subcode: number | undefined;
  readonly details: string | undefined;
  readonly userTitle: string | undefined;
  readonly userMessage: string | undefined;

  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    options: GraphErrorOptions = {},
  ) {
    super(message);
    this.type = options.type ?? 'OAuthException';
    this.subcode = options.subcode;
    this.details = options.details;
    this.userTitle = options.userTitle;
    this.userMessage = options.userMessage;
  }
}

export function graphErrorBody(error: GraphError, fbtraceId = randomAlphanumeric(22)): GraphErrorBody {
  return {
    error: {
      message: error.message,
      type: error.type,
      code: error.code,
      ...(error.subcode === undefined ? {} : { error_subcode: error.subcode }),
      ...(error.details === undefined
        ? {}
        : { error_data: { messaging_product: 'whatsapp' as const, details: error.details } }),
      ...(error.userTitle === undefined && error.userMessage === undefined
        ? {}
        : {
            is_transient: false,
            ...(error.userTitle === undefined ? {} : { error_user_title: error.userTitle }),
            ...(error.userMessage === undefined ? {} : { error_user_msg: error.userMessage }),
          }),
      fbtrace_id: fbtraceId,
    },
  };
}

export function invalidAccessToken(malformed: boolean): GraphError {
  return new GraphError(
    401,
    190,
    malformed ? 'Malformed access token' : 'Invalid OAuth access token - Cannot parse access token',
  );
}

/**
 * Meta answers the same way for an id that does not exist and for one the token may not see, so a
 * token cannot be used to probe for other customers' ids.
 */
export function unsupportedRequest(method: string, id: string): GraphError {
  return new GraphError(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    { type: 'GraphMethodException', subcode: 33 },
  );
}

/** A GET of an edge a node does not have (Graph reads it as a field of that node). */
export function nonexistingField(field: string, nodeType: string): GraphError {
  return new GraphError(
    400,
    100,
    `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
  );
}

export function invalidParameter(details: string): GraphError {
  return new GraphError(400, 100, `(#100) Invalid parameter: ${details}`, { details });
}

export function missingParameter(name: string): GraphError {
  return new GraphError(400, 100, `(#100) The parameter ${name} is required.`, {
    details: `The parameter ${name} is required.`,
  });
}

export function pinMismatch(): GraphError {
  return new GraphError(400, 133005, 'Two step verification PIN Mismatch', {
    details: 'The PIN does not match the two-step verification PIN already set for this phone number.',
  });
}

export function invalidApplicationId(): GraphError {
  return new GraphError(400, 101, 'Error validating application. Invalid application ID.');
}

export function invalidClientSecret(): GraphError {
  return new GraphError(400, 1, 'Error validating client secret.');
}

export function authorizationCodeUsed(): GraphError {
  return new GraphError(400, 100, 'This authorization code has been used.', { subcode: 36009 });
}

export function invalidAuthorizationCode(): GraphError {
  return new GraphError(400, 100, 'Invalid verification code format.', { subcode: 36008 });
}

export function unknownError(): GraphError {
  return new GraphError(500, 1, 'An unknown error has occurred.');
}
