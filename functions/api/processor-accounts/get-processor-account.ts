import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getProcessorAccount } from '../../store/processor-accounts';
import { processorAccountRoutes } from './routes';

/** 200 with the merchant's processor account; 404 until one is linked. */
export const handler = httpHandler(processorAccountRoutes.getProcessorAccount, async ({ params }) => {
  const account = await getProcessorAccount(params.merchantId);
  if (account === undefined) {
    throw new NotFoundError(
      'The merchant has no processor account yet; POST /merchants/{merchantId}/processor-account links one.',
    );
  }
  return { status: 200, body: account };
});
