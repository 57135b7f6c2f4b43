import { createSesEventsHandler } from './ses-events';

export const handler = createSesEventsHandler();
