import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { documentClient } from '../../../functions/store/client';
import { buildPutNewInvoice, queryInvoices } from '../../../functions/store/invoices';
import { invoiceIn } from '../../support/domain-invoice';
import { useFreshTable } from '../../support/table-environment';

let tableName: string;
beforeAll(async () => {
  tableName = await useFreshTable();
});

describe("a customer's invoices (GSI7)", () => {
  it('go on from a cursor of the whole-item index (GSI2) an earlier release minted', async () => {
    const merchantId = newId('mer');
    const customerId = newId('cust');
    const invoices = Array.from({ length: 3 }, () =>
      invoiceIn('issued', 1000, 0, {
        invoiceId: newId('inv'),
        merchantId,
        customerId,
        invoiceUrlSlug: newId('inv'),
      }),
    );
    for (const invoice of invoices) {
      await documentClient().send(
        new PutCommand({ TableName: tableName, Item: buildPutNewInvoice(invoice, 'Co').Put.Item }),
      );
    }
    const first = await queryInvoices(merchantId, [], { customerId }, 1, undefined);
    const [newest] = first.items;
    expect(newest?.invoiceId).toBe(invoices[2]?.invoiceId);
    // The earlier release's cursor: the table's key and the GSI2 key of the page's last invoice.
    const earlierCursor = {
      PK: newest?.PK,
      SK: newest?.SK,
      GSI2PK: `MERCHANT#${merchantId}#CUSTOMER#${customerId}#INVOICES`,
      GSI2SK: newest?.invoiceId,
    };
    const next = await queryInvoices(merchantId, [], { customerId }, 5, earlierCursor);
    expect(next.items.map((item) => item.invoiceId)).toEqual([
      invoices[1]?.invoiceId,
      invoices[0]?.invoiceId,
    ]);
    // This release's own cursor reads the same page.
    const again = await queryInvoices(merchantId, [], { customerId }, 5, first.lastKey);
    expect(again.items.map((item) => item.invoiceId)).toEqual(next.items.map((item) => item.invoiceId));
  });
});
