import { GraphError } from '../errors';

/**
 * Template validation failures answer like Meta's: HTTP 400, code 100, message "Invalid parameter", a
 * subcode where Meta has a well-known one, and the text meant for people in error_user_title/msg.
 */
export const TEMPLATE_SUBCODES = {
  /** A template of this name already has content in this language. */
  duplicate: 2388024,
  /** The WABA already holds the most template names it may (250). *unverified* */
  limit: 2388019,
  /** A header, body, footer or button text is longer than Meta allows. */
  tooLong: 2388040,
  /** A variable needs a sample value (example) and none was given. */
  missingExample: 2388043,
  /** The header's format or its sample media is wrong. */
  headerFormat: 2388047,
  /** A body that starts or ends with a variable ("Leading or trailing params not allowed"). */
  variableAtEdge: 2388299,
  /** More variables than the sandbox allows in a body (10). */
  tooManyVariables: 2388293,
} as const;

export function templateError(userTitle: string, userMessage: string, subcode?: number): GraphError {
  return new GraphError(400, 100, 'Invalid parameter', {
    ...(subcode === undefined ? {} : { subcode }),
    userTitle,
    userMessage,
  });
}

export function duplicateTemplate(language: string): GraphError {
  return templateError(
    'Content in This Language Already Exists',
    `There is already ${language} content for this template. You can create a new template and try again.`,
    TEMPLATE_SUBCODES.duplicate,
  );
}

export function templateLimitReached(limit: number): GraphError {
  return templateError(
    'Message Template Limit Reached',
    `This WhatsApp Business Account already has ${limit} message templates, the most it may have. Delete a template and try again.`,
    TEMPLATE_SUBCODES.limit,
  );
}

export function templateNotEditable(status: string): GraphError {
  return templateError(
    "Message Template Can't Be Edited",
    `Only templates with status APPROVED, REJECTED or PAUSED can be edited. This template's status is ${status}.`,
  );
}

export function templateNotFound(name: string): GraphError {
  return templateError('Message Template Not Found', `No message template named "${name}" was found.`);
}
