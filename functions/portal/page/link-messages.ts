/**
 * What the portal says when it cannot show a merchant's data: a link without its token, one the
 * service refused, or a session that ended while open (docs/decisions/merchant-portal-page.md).
 * Each says what happened and what to do, and shows no data.
 */
export const LinkProblem = {
  noToken: 'no_token',
  invalidLink: 'unauthorized',
  used: 'portal_link_used',
  expired: 'portal_session_expired',
  revoked: 'portal_session_revoked',
  sessionEnded: 'session_ended',
  unavailable: 'unavailable',
} as const;
export type LinkProblem = (typeof LinkProblem)[keyof typeof LinkProblem];

export interface LinkMessage {
  readonly heading: string;
  readonly text: string;
}

const askForANewLink = 'Open the portal again from the app that gave you the link.';

const messages: Readonly<Record<LinkProblem, LinkMessage>> = {
  no_token: {
    heading: 'This link is incomplete',
    text: `The portal link is missing the part after “#”. Copy the whole link, or ${askForANewLink.charAt(0).toLowerCase()}${askForANewLink.slice(1)}`,
  },
  unauthorized: {
    heading: 'This link is not valid',
    text: `Check that you copied it whole. ${askForANewLink}`,
  },
  portal_link_used: {
    heading: 'This link was already used',
    text: `A portal link opens the portal once, in the tab that first opened it. ${askForANewLink}`,
  },
  portal_session_expired: { heading: 'This portal session has expired', text: askForANewLink },
  portal_session_revoked: { heading: 'This portal session was ended', text: askForANewLink },
  session_ended: {
    heading: 'Your portal session has ended',
    text: `It expired or was ended, so nothing more is shown. ${askForANewLink}`,
  },
  unavailable: {
    heading: 'The portal could not be opened',
    text: 'The service did not answer as expected. Reload the page in a moment to try again.',
  },
};

/** The problem an error code of `POST /portal/exchange` stands for; any other is `unavailable`. */
export function exchangeProblem(code: string | undefined): LinkProblem {
  switch (code) {
    case 'unauthorized':
    case 'validation_error':
      return LinkProblem.invalidLink;
    case 'portal_link_used':
    case 'portal_session_expired':
    case 'portal_session_revoked':
      return code;
    default:
      return LinkProblem.unavailable;
  }
}

export function linkMessage(problem: LinkProblem): LinkMessage {
  return messages[problem];
}
