/**
 * The hosted pay page's script, built into the page's one inline script (functions/pay/build-pay-page.ts):
 * the slug goes from the URL's fragment into JSON bodies only (docs/decisions/hosted-pay-page.md).
 */

interface Money {
  readonly amount: number;
  readonly currency: string;
}

interface InvoiceLine {
  readonly description: string;
  readonly quantity: number;
  readonly unitAmount: number;
  readonly lineTotal: number;
}

/** The payer's view of an invoice, as `POST pay/invoice` answers it. */
interface InvoiceView {
  readonly merchantName: string;
  readonly invoiceNumber: string;
  readonly status: string;
  readonly currency: string;
  readonly lineItems: readonly InvoiceLine[];
  readonly total: Money;
  readonly amountPaid: Money;
  readonly amountRemaining: Money;
  readonly dueDate: string | null;
  readonly paidAt: string | null;
  readonly acceptedPaymentMethods: readonly string[];
  /** `processor_checkout` in production: the payer is sent to Stripe's hosted Checkout. */
  readonly payOn: string;
}

interface CheckoutBody extends ErrorBody {
  readonly checkoutUrl?: string;
}

interface PaymentView extends Money {
  readonly paymentId: string;
  readonly status: string;
  readonly declineMessage: string | null;
}

interface ValidationDetail {
  readonly path: string;
  readonly message: string;
}

/** The error body every route answers with; any part may be missing from a proxy's answer. */
interface ErrorBody {
  readonly error?: {
    readonly code?: string;
    readonly message?: string;
    readonly requestId?: unknown;
    readonly details?: readonly ValidationDetail[];
  };
}

interface PaymentBody extends ErrorBody {
  readonly payment?: PaymentView;
  readonly invoice?: InvoiceView;
}

interface ApiResult {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfter: number;
}

const FieldLabel = {
  'card-number': 'Card number',
  'card-exp-month': 'Expiry month',
  'card-exp-year': 'Expiry year',
  'card-cvc': 'Security code',
  'bank-routing': 'Routing number',
  'bank-account': 'Account number',
} as const;
type FieldId = keyof typeof FieldLabel;

/** The input a validation detail's path names. */
const fieldOfPath: Readonly<Record<string, FieldId>> = {
  'paymentMethod.number': 'card-number',
  'paymentMethod.expMonth': 'card-exp-month',
  'paymentMethod.expYear': 'card-exp-year',
  'paymentMethod.cvc': 'card-cvc',
  'paymentMethod.routingNumber': 'bank-routing',
  'paymentMethod.accountNumber': 'bank-account',
};

const statusLabels: Readonly<Record<string, string>> = {
  issued: 'Awaiting payment',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  void: 'Void',
};

// A slug is base64url; anything else can't name an invoice and is never sent.
const slugPattern = /^[A-Za-z0-9_-]{1,128}$/;

function byId<T extends HTMLElement>(id: string, type: abstract new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`The pay page has no ${type.name} #${id}`);
  return node;
}

const page = {
  merchant: byId('merchant', HTMLElement),
  heading: byId('heading', HTMLElement),
  status: byId('status', HTMLElement),
  alert: byId('alert', HTMLElement),
  retry: byId('retry', HTMLButtonElement),
  notFound: byId('not-found', HTMLElement),
  outcome: byId('outcome', HTMLElement),
  outcomeHeading: byId('outcome-heading', HTMLElement),
  outcomeText: byId('outcome-text', HTMLElement),
  invoice: byId('invoice', HTMLElement),
  facts: byId('facts', HTMLElement),
  lines: byId('lines', HTMLElement),
  totals: byId('totals', HTMLElement),
  form: byId('pay-form', HTMLFormElement),
  methods: byId('methods', HTMLFieldSetElement),
  card: byId('card', HTMLFieldSetElement),
  bank: byId('bank', HTMLFieldSetElement),
  submit: byId('submit', HTMLButtonElement),
  checkoutNote: byId('checkout-note', HTMLElement),
};

const input = (id: FieldId): HTMLInputElement => byId(id, HTMLInputElement);
const fieldError = (id: FieldId): HTMLElement => byId(`${id}-error`, HTMLElement);

let slug = '';
let invoice: InvoiceView | null = null;
let generation = 0;
let busy = false;
/** How many times more the page looks again for a payment Stripe's Checkout just took. */
let confirmationChecks = 10;
const confirmationIntervalMs = 3000;
// The last submission whose outcome is unknown (network error, 5xx, still in progress). Sending
// the same details again reuses its Idempotency-Key, so a retry can't pay twice.
let unsettled: { readonly fingerprint: string; readonly key: string } | null = null;

function money(value: Money): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: value.currency }).format(
      value.amount / 100,
    );
  } catch {
    return `${(value.amount / 100).toFixed(2)} ${value.currency}`;
  }
}

// The date part of a date or timestamp, as written, in the reader's language.
function formatDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (match === null) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

function element(tag: string, text?: string, className?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

async function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResult> {
  const response = await fetch(new URL(path, location.href), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
    body: JSON.stringify(body),
    cache: 'no-store',
    credentials: 'same-origin',
    referrerPolicy: 'no-referrer',
  });
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, retryAfter: Number(response.headers.get('Retry-After')) };
}

/** The request's outcome, or null when it never got an answer. */
async function tryPost(
  path: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<ApiResult | null> {
  try {
    return await postJson(path, body, headers);
  } catch {
    return null;
  }
}

function isInvoiceView(body: unknown): body is InvoiceView {
  return typeof body === 'object' && body !== null && Array.isArray((body as InvoiceView).lineItems);
}

function setStatus(text: string): void {
  page.status.textContent = text;
}

function showAlert(message: string, list: readonly string[], focus = true): void {
  page.alert.replaceChildren(element('p', message));
  if (list.length > 0) {
    const items = element('ul');
    for (const line of list) items.append(element('li', line));
    page.alert.append(items);
  }
  if (focus) page.alert.focus();
}

function clearAlert(): void {
  page.alert.replaceChildren();
  page.retry.hidden = true;
}

function showRetry(label: string): void {
  page.retry.textContent = label;
  page.retry.hidden = false;
}

function reference(body: ErrorBody | null): string[] {
  const requestId = body?.error?.requestId;
  return typeof requestId === 'string' ? [`Reference: ${requestId}`] : [];
}

function hideInvoice(): void {
  invoice = null;
  page.merchant.textContent = '';
  page.notFound.hidden = true;
  page.outcome.hidden = true;
  page.invoice.hidden = true;
  page.form.hidden = true;
}

async function load(keepAlert: boolean): Promise<void> {
  const current = ++generation;
  slug = location.hash.slice(1);
  unsettled = null;
  if (!keepAlert) clearAlert();
  hideInvoice();
  page.heading.textContent = 'Invoice';
  if (!slugPattern.test(slug)) {
    showNotFound();
    return;
  }
  setStatus('Loading the invoice…');
  const result = await tryPost('pay/invoice', { slug });
  if (current !== generation) return;
  setStatus('');
  if (result?.status === 200 && isInvoiceView(result.body)) {
    render(result.body, null);
    awaitConfirmation(result.body);
  } else if (result?.status === 404 || result?.status === 400) {
    showNotFound();
  } else {
    showLoadFailure(result);
  }
}

function showLoadFailure(result: ApiResult | null): void {
  if (result === null) {
    showAlert('We couldn’t reach the server. Check your connection, then try again.', []);
  } else if (result.status === 429) {
    showAlert('Too many requests. Wait a minute, then try again.', []);
  } else if (result.status === 503) {
    showAlert('Payments are not available right now. Try again later.', []);
  } else {
    showAlert(
      'Something went wrong while loading the invoice. Try again.',
      reference(result.body as ErrorBody),
    );
  }
  showRetry('Try again');
}

// The same words whatever the reason (unknown, rotated or draft), so the page gives nothing away.
function showNotFound(): void {
  generation++;
  hideInvoice();
  setStatus('');
  page.heading.textContent = 'Invoice not found';
  document.title = 'Invoice not found';
  page.notFound.hidden = false;
  page.heading.focus();
}

/** The accepted methods this page can take, and whether anything is left to pay with them. */
function payableMethods(view: InvoiceView): string[] {
  const methods = view.acceptedPaymentMethods.filter(
    (method) => method === 'card' || method === 'bank_account',
  );
  const open = view.status === 'issued' || view.status === 'partially_paid';
  return open && view.amountRemaining.amount > 0 ? methods : [];
}

function render(view: InvoiceView, payment: PaymentView | null): void {
  invoice = view;
  page.merchant.textContent = view.merchantName;
  page.heading.textContent = `Invoice ${view.invoiceNumber}`;
  document.title = `Invoice ${view.invoiceNumber} · ${view.merchantName}`;
  page.notFound.hidden = true;
  renderFacts(view);
  renderLines(view);
  renderTotals(view);
  page.invoice.hidden = false;

  const methods = payableMethods(view);
  renderOutcome(view, payment, methods.length > 0);
  if (methods.length > 0) setUpForm(methods);
  else page.form.hidden = true;
}

function renderOutcome(view: InvoiceView, payment: PaymentView | null, payable: boolean): void {
  if (payment !== null) {
    const text = [`Thank you. Your payment of ${money(payment)} was received.`];
    if (payable) text.push(`${money(view.amountRemaining)} is still due.`);
    text.push(`Payment reference: ${payment.paymentId}`);
    showOutcome('Payment received', text, true);
  } else if (view.status === 'paid') {
    const when = view.paidAt ? ` on ${formatDate(view.paidAt)}` : '';
    showOutcome('This invoice is paid', [`It was paid in full${when}. Nothing more is due.`], true);
  } else if (view.status === 'void') {
    showOutcome(
      'This invoice was voided',
      [`It can’t be paid. Contact ${view.merchantName} with any questions.`],
      false,
    );
  } else if (!payable) {
    showOutcome(
      'This invoice can’t be paid here',
      [`Contact ${view.merchantName} with any questions.`],
      false,
    );
  } else {
    page.outcome.hidden = true;
  }
}

function showOutcome(heading: string, paragraphs: readonly string[], ok: boolean): void {
  page.outcomeHeading.textContent = heading;
  page.outcomeText.replaceChildren(...paragraphs.map((text) => element('p', text)));
  page.outcome.classList.toggle('ok', ok);
  page.outcome.hidden = false;
}

function renderFacts(view: InvoiceView): void {
  const facts: [term: string, value: string][] = [['Status', statusLabels[view.status] ?? view.status]];
  if (view.dueDate) facts.push(['Due date', formatDate(view.dueDate)]);
  if (view.paidAt) facts.push(['Paid on', formatDate(view.paidAt)]);
  page.facts.replaceChildren(
    ...facts.flatMap(([term, value]) => [element('dt', term), element('dd', value)]),
  );
}

function renderLines(view: InvoiceView): void {
  page.lines.replaceChildren(
    ...view.lineItems.map((line) => {
      const unit = money({ amount: line.unitAmount, currency: view.currency });
      const description = element('td', line.description, 'description');
      description.append(element('span', `${line.quantity} × ${unit}`, 'line-detail'));
      const row = element('tr');
      row.append(
        description,
        element('td', String(line.quantity), 'num wide'),
        element('td', unit, 'num wide'),
        element('td', money({ amount: line.lineTotal, currency: view.currency }), 'num'),
      );
      return row;
    }),
  );
}

function renderTotals(view: InvoiceView): void {
  const totals: [term: string, value: string, className: string][] = [['Total', money(view.total), '']];
  if (view.amountPaid.amount > 0) totals.push(['Paid', money(view.amountPaid), '']);
  totals.push(['Amount due', money(view.amountRemaining), 'due']);
  page.totals.replaceChildren(
    ...totals.map(([term, value, className]) => {
      const entry = element('div', undefined, className);
      entry.append(element('dt', term), element('dd', value));
      return entry;
    }),
  );
}

function methodRadios(): HTMLInputElement[] {
  return Array.from(page.form.querySelectorAll<HTMLInputElement>('input[name="method"]'));
}

function setUpForm(methods: readonly string[]): void {
  const radios = methodRadios();
  for (const radio of radios) {
    const label = radio.closest('label');
    if (label !== null) label.hidden = !methods.includes(radio.value);
  }
  if (!methods.includes(selectedMethod())) {
    for (const radio of radios) radio.checked = radio.value === methods[0];
  }
  page.methods.hidden = methods.length < 2;
  showMethod();
  page.submit.textContent = payLabel();
  page.form.hidden = false;
}

/** Production: the details are typed on Stripe's Checkout, not here. */
function paysOnCheckout(): boolean {
  return invoice?.payOn === 'processor_checkout';
}

function selectedMethod(): string {
  const checked = page.form.querySelector<HTMLInputElement>('input[name="method"]:checked');
  return checked === null ? '' : checked.value;
}

function showMethod(): void {
  const method = paysOnCheckout() ? '' : selectedMethod();
  // A disabled fieldset also takes the hidden method's fields out of the tab order.
  page.card.hidden = method !== 'card';
  page.card.disabled = method !== 'card';
  page.bank.hidden = method !== 'bank_account';
  page.bank.disabled = method !== 'bank_account';
  page.checkoutNote.hidden = !paysOnCheckout();
}

function payLabel(): string {
  if (invoice === null) return 'Pay';
  return `${paysOnCheckout() ? 'Continue to pay' : 'Pay'} ${money(invoice.amountRemaining)}`;
}

function markField(id: FieldId, message: string): void {
  input(id).setAttribute('aria-invalid', 'true');
  fieldError(id).textContent = message;
}

function clearFieldErrors(): void {
  for (const id of Object.keys(FieldLabel) as FieldId[]) {
    input(id).removeAttribute('aria-invalid');
    fieldError(id).textContent = '';
  }
}

// Spaces and dashes people type to group digits are dropped before anything is checked or sent.
function digitsOf(id: FieldId): string {
  return input(id).value.replace(/[\s-]/g, '');
}

type FieldErrors = [id: FieldId, message: string][];

function collect(method: string): { errors: FieldErrors; paymentMethod: Record<string, unknown> } {
  const errors: FieldErrors = [];
  const digits = (id: FieldId, message: string): string => {
    const value = digitsOf(id);
    if (!/^\d+$/.test(value)) errors.push([id, message]);
    return value;
  };
  if (method === 'bank_account') {
    const routingNumber = digits('bank-routing', 'Enter the routing number, using digits only.');
    const accountNumber = digits('bank-account', 'Enter the account number, using digits only.');
    return { errors, paymentMethod: { type: 'bank_account', routingNumber, accountNumber } };
  }
  const number = digits('card-number', 'Enter the card number, using digits only.');
  const month = digitsOf('card-exp-month');
  if (!/^\d{1,2}$/.test(month) || Number(month) < 1 || Number(month) > 12) {
    errors.push(['card-exp-month', 'Enter the expiry month as a number from 1 to 12.']);
  }
  const year = digitsOf('card-exp-year');
  if (!/^\d{4}$/.test(year))
    errors.push(['card-exp-year', 'Enter the expiry year with 4 digits, like 2030.']);
  const cvc = digits('card-cvc', 'Enter the security code, using digits only.');
  return {
    errors,
    paymentMethod: { type: 'card', number, expMonth: Number(month), expYear: Number(year), cvc },
  };
}

function setBusy(value: boolean): void {
  busy = value;
  page.form.setAttribute('aria-busy', String(value));
  page.submit.setAttribute('aria-disabled', String(value));
  page.submit.textContent = value ? 'Processing…' : payLabel();
  setStatus(value ? 'Processing the payment…' : '');
}

function showFieldErrors(errors: FieldErrors): void {
  for (const [id, message] of errors) markField(id, message);
  showAlert(
    'Check the payment details:',
    errors.map(([, message]) => message),
    false,
  );
  const first = errors[0];
  if (first !== undefined) input(first[0]).focus();
}

async function pay(): Promise<void> {
  if (busy || invoice === null) return;
  clearAlert();
  clearFieldErrors();
  if (paysOnCheckout()) {
    await openCheckout(invoice);
    return;
  }
  const details = collect(selectedMethod());
  if (details.errors.length > 0) {
    showFieldErrors(details.errors);
    return;
  }
  const body = { slug, amount: invoice.amountRemaining.amount, paymentMethod: details.paymentMethod };
  const fingerprint = JSON.stringify(body);
  const key = unsettled !== null && unsettled.fingerprint === fingerprint ? unsettled.key : newKey();
  unsettled = { fingerprint, key };
  const current = generation;
  setBusy(true);
  const result = await tryPost('pay/payments', body, { 'Idempotency-Key': key });
  setBusy(false);
  if (current !== generation) return;
  await settle(result);
}

/** Asks for a Checkout Session and sends the payer there; Stripe sends them back to this page. */
async function openCheckout(view: InvoiceView): Promise<void> {
  const body = { slug, amount: view.amountRemaining.amount, paymentMethodType: selectedMethod() };
  const fingerprint = JSON.stringify(body);
  const key = unsettled !== null && unsettled.fingerprint === fingerprint ? unsettled.key : newKey();
  unsettled = { fingerprint, key };
  const current = generation;
  setBusy(true);
  const result = await tryPost('pay/checkout-sessions', body, { 'Idempotency-Key': key });
  if (current !== generation) return;
  const url = (result?.body as CheckoutBody | undefined)?.checkoutUrl;
  // The URL is the service's own answer; the page's CSP would refuse a script one anyway.
  if (result?.status === 201 && typeof url === 'string') {
    setStatus('Opening the secure checkout page…');
    location.assign(url);
    return;
  }
  setBusy(false);
  await settle(result);
}

/**
 * Back from Stripe's Checkout: the payment is recorded once Stripe tells the service, a moment later,
 * so the page says so and looks again a few times.
 */
function awaitConfirmation(view: InvoiceView): void {
  const open = view.status === 'issued' || view.status === 'partially_paid';
  if (
    new URLSearchParams(location.search).get('checkout') !== 'complete' ||
    !open ||
    confirmationChecks <= 0
  ) {
    return;
  }
  confirmationChecks -= 1;
  page.form.hidden = true;
  showOutcome('Thank you', ['Your payment is being confirmed. This page updates when it is.'], true);
  setTimeout(() => void load(true), confirmationIntervalMs);
}

async function settle(result: ApiResult | null): Promise<void> {
  if (result === null) {
    showAlert('We couldn’t reach the server, so we can’t tell whether the payment went through.', [
      'Try again: the same payment is never taken twice.',
    ]);
    return;
  }
  const body = (result.body ?? {}) as PaymentBody;
  if (result.status === 201 && body.payment && body.invoice) {
    unsettled = null;
    showPayment(body.payment, body.invoice);
    return;
  }
  const code = body.error?.code;
  const unknownOutcome = result.status >= 500 || code === 'idempotency_in_progress';
  if (!unknownOutcome) unsettled = null;
  if (result.status === 400 && code === 'validation_error') {
    showValidationErrors(body);
  } else if (result.status === 404) {
    showNotFound();
  } else if (result.status === 409 && code === 'invalid_state') {
    showAlert(body.error?.message || 'This invoice can’t take that payment now.', [
      'The invoice was reloaded: check it before you pay.',
    ]);
    await load(true);
  } else {
    showPaymentFailure(result, body, unknownOutcome);
  }
}

function showPayment(payment: PaymentView, view: InvoiceView): void {
  if (payment.status === 'completed') {
    page.form.reset();
    clearFieldErrors();
    render(view, payment);
    page.outcomeHeading.focus();
  } else {
    render(view, null);
    showAlert(payment.declineMessage || 'The payment was declined.', []);
  }
}

function showValidationErrors(body: PaymentBody): void {
  const details = Array.isArray(body.error?.details) ? body.error.details : [];
  const messages = details.map((detail) => {
    const id = fieldOfPath[detail.path];
    if (id === undefined) return detail.message;
    markField(id, detail.message);
    return `${FieldLabel[id]}: ${detail.message}`;
  });
  showAlert(body.error?.message || 'Some payment details are not valid.', messages);
}

function showPaymentFailure(result: ApiResult, body: PaymentBody, unknownOutcome: boolean): void {
  if (result.status === 409) {
    showAlert('A payment for this invoice is already being processed.', [
      'Wait a moment, then reload the invoice to see its result.',
    ]);
    showRetry('Reload the invoice');
  } else if (result.status === 429 && result.retryAfter > 0) {
    // Only the cap on declined payments of this invoice says how long it lasts.
    const minutes = Math.ceil(result.retryAfter / 60);
    showAlert('This invoice can’t take more payment attempts for now.', [
      `Try again in ${minutes}${minutes === 1 ? ' minute.' : ' minutes.'}`,
    ]);
  } else if (result.status === 429) {
    showAlert('Too many attempts. Wait a minute, then try again.', []);
  } else if (result.status === 503) {
    showAlert('Payments are not available right now. Try again later.', []);
  } else if (unknownOutcome) {
    showAlert('Something went wrong, and the payment may not have gone through.', [
      'Try again: the same payment is never taken twice.',
      ...reference(body),
    ]);
  } else {
    showAlert('Something went wrong. Try again.', reference(body));
  }
}

page.form.addEventListener('submit', (event) => {
  event.preventDefault();
  void pay();
});
page.methods.addEventListener('change', showMethod);
page.retry.addEventListener('click', () => void load(false));
window.addEventListener('hashchange', () => void load(false));
void load(false);
