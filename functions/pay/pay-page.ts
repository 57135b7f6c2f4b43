import { createHash } from 'node:crypto';

/**
 * The hosted pay page (DESIGN §4, "Pay link"): one static HTML document with one inline style and
 * one inline script, served at `GET /pay`. The pay link is `{base_url}/pay#<invoiceUrlSlug>`; the
 * slug lives in the fragment, so no server, log or Referer sees it. The script reads it from
 * `location.hash` and sends it only in the JSON bodies of `POST pay/invoice` and `POST pay/payments`,
 * resolved against the page's own URL so the page works at `/pay` locally and at `/<stage>/pay`
 * behind API Gateway. It never writes the slug to a URL, storage or the console, and it builds the
 * DOM with `textContent` only, so merchant-written text can't inject markup.
 */

const style = `
:root {
  color-scheme: light;
  --ink: #1c1e21;
  --muted: #4b5159;
  --line: #d0d4da;
  --field: #6b7280;
  --surface: #ffffff;
  --page: #f3f4f6;
  --accent: #0a53c4;
  --accent-strong: #083f96;
  --accent-soft: #eaf1fc;
  --error: #a4161a;
  --error-soft: #fdeeee;
  --ok: #17612b;
  --ok-soft: #e8f5ec;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  line-height: 1.5;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--page); color: var(--ink); }
main { max-width: 42rem; margin: 0 auto; padding: 1.25rem 0.75rem 3rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0; overflow-wrap: anywhere; }
h2 { font-size: 1.125rem; line-height: 1.3; margin: 0 0 0.75rem; }
p { margin: 0 0 0.5rem; }
.merchant { margin: 0 0 0.25rem; color: var(--muted); font-weight: 600; overflow-wrap: anywhere; }
.status { margin: 0.75rem 0 0; color: var(--muted); }
.status:empty { display: none; }
.alert { margin-top: 1rem; padding: 0.75rem 1rem; border: 1px solid var(--error); border-left-width: 0.375rem;
  border-radius: 0.375rem; background: var(--error-soft); }
.alert:empty { display: none; }
.alert p:last-child, .alert ul { margin-bottom: 0; }
.alert ul { padding-left: 1.25rem; margin-top: 0.25rem; }
.panel { margin-top: 1rem; padding: 1.25rem; background: var(--surface); border: 1px solid var(--line);
  border-radius: 0.75rem; }
.outcome { border-left: 0.375rem solid var(--muted); }
.outcome.ok { border-left-color: var(--ok); background: var(--ok-soft); }
.outcome p:last-child { margin-bottom: 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
table { width: 100%; border-collapse: collapse; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
th, td { text-align: left; vertical-align: top; padding: 0.5rem 0.75rem 0.5rem 0; border-bottom: 1px solid var(--line); }
th:last-child, td:last-child { padding-right: 0; }
thead th { font-size: 0.875rem; font-weight: 600; color: var(--muted); }
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
/* The description takes the spare width; the amounts keep just what they need. */
.description, thead th:first-child { width: 100%; }
.description { overflow-wrap: anywhere; }
.line-detail { display: none; color: var(--muted); font-size: 0.875rem; }
.totals { margin: 0.75rem 0 0; }
.totals div { display: flex; justify-content: space-between; gap: 1rem; padding: 0.25rem 0; }
.totals dt { color: var(--muted); }
.totals dd { margin: 0; font-variant-numeric: tabular-nums; }
.totals .due { margin-top: 0.25rem; padding-top: 0.5rem; border-top: 1px solid var(--line); font-size: 1.125rem;
  font-weight: 700; }
.totals .due dt { color: var(--ink); }
fieldset { min-width: 0; margin: 0 0 1rem; padding: 0; border: 0; }
legend { padding: 0; margin-bottom: 0.5rem; font-weight: 600; }
.choices label { display: flex; align-items: center; gap: 0.625rem; min-height: 2.75rem; margin-bottom: 0.5rem;
  padding: 0.25rem 0.75rem; border: 1px solid var(--field); border-radius: 0.375rem; cursor: pointer; }
.choices label:has(input:checked) { border-color: var(--accent); background: var(--accent-soft); }
.choices input { width: 1.25rem; height: 1.25rem; margin: 0; accent-color: var(--accent); }
.field { margin-bottom: 0.75rem; }
.field label { display: block; margin-bottom: 0.25rem; font-weight: 500; }
/* Three columns where they fit, two on a phone, so no label wraps and the inputs stay aligned. */
.row { display: grid; grid-template-columns: repeat(auto-fit, minmax(7.5rem, 1fr)); gap: 0 0.75rem; }
input[type="text"] { width: 100%; min-height: 2.75rem; padding: 0.5rem 0.75rem; font: inherit; color: inherit;
  background: var(--surface); border: 1px solid var(--field); border-radius: 0.375rem; }
input[aria-invalid="true"] { border: 2px solid var(--error); }
.field-error { margin: 0.25rem 0 0; color: var(--error); font-size: 0.875rem; }
.field-error:empty { display: none; }
button { width: 100%; min-height: 2.75rem; padding: 0.625rem 1.25rem; font: inherit; font-weight: 600; color: #fff;
  background: var(--accent); border: 1px solid var(--accent); border-radius: 0.375rem; cursor: pointer; }
button:hover, button[aria-disabled="true"] { background: var(--accent-strong); }
button[aria-disabled="true"] { cursor: progress; }
button.secondary { width: auto; margin-top: 0.75rem; color: var(--accent); background: var(--surface); }
button.secondary:hover { background: var(--accent-soft); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
[tabindex="-1"]:focus { outline: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (max-width: 30rem) {
  .wide { display: none; }
  .line-detail { display: block; }
  .panel { padding: 1rem; }
}
@media (min-width: 40rem) {
  main { padding-top: 2.5rem; }
  .panel { padding: 1.75rem; }
  button[type="submit"] { width: auto; min-width: 12rem; }
}
`;

// String.raw keeps the regular expressions' backslashes; the script uses no backtick and no "${".
const script = String.raw`
(() => {
  'use strict';

  const byId = (id) => document.getElementById(id);
  const page = {
    merchant: byId('merchant'),
    heading: byId('heading'),
    status: byId('status'),
    alert: byId('alert'),
    retry: byId('retry'),
    notFound: byId('not-found'),
    outcome: byId('outcome'),
    outcomeHeading: byId('outcome-heading'),
    outcomeText: byId('outcome-text'),
    invoice: byId('invoice'),
    facts: byId('facts'),
    lines: byId('lines'),
    totals: byId('totals'),
    form: byId('pay-form'),
    methods: byId('methods'),
    card: byId('card'),
    bank: byId('bank'),
    submit: byId('submit'),
  };

  // A slug is base64url; anything else can't name an invoice and is never sent.
  const slugPattern = /^[A-Za-z0-9_-]{1,128}$/;
  const statusLabels = {
    issued: 'Awaiting payment',
    partially_paid: 'Partially paid',
    paid: 'Paid',
    void: 'Void',
  };
  const fieldLabels = {
    'card-number': 'Card number',
    'card-exp-month': 'Expiry month',
    'card-exp-year': 'Expiry year',
    'card-cvc': 'Security code',
    'bank-routing': 'Routing number',
    'bank-account': 'Account number',
  };
  const fieldOfPath = {
    'paymentMethod.number': 'card-number',
    'paymentMethod.expMonth': 'card-exp-month',
    'paymentMethod.expYear': 'card-exp-year',
    'paymentMethod.cvc': 'card-cvc',
    'paymentMethod.routingNumber': 'bank-routing',
    'paymentMethod.accountNumber': 'bank-account',
  };

  let slug = '';
  let invoice = null;
  let generation = 0;
  let busy = false;
  // The last submission whose outcome is unknown (network error, 5xx, still in progress). Sending
  // the same details again reuses its Idempotency-Key, so a retry can't pay twice.
  let unsettled = null;

  function money(value) {
    try {
      return new Intl.NumberFormat(undefined, { style: 'currency', currency: value.currency }).format(
        value.amount / 100,
      );
    } catch (error) {
      return (value.amount / 100).toFixed(2) + ' ' + value.currency;
    }
  }

  // The date part of a date or timestamp, as written, in the reader's language.
  function formatDate(value) {
    const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
    if (match === null) return String(value);
    const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
  }

  function newKey() {
    if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
  }

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className !== undefined) node.className = className;
    return node;
  }

  async function postJson(path, body, headers) {
    const response = await fetch(new URL(path, location.href), {
      method: 'POST',
      headers: Object.assign({ 'Content-Type': 'application/json', Accept: 'application/json' }, headers),
      body: JSON.stringify(body),
      cache: 'no-store',
      credentials: 'same-origin',
      referrerPolicy: 'no-referrer',
    });
    let parsed = null;
    try {
      parsed = await response.json();
    } catch (error) {
      parsed = null;
    }
    return { status: response.status, body: parsed, retryAfter: Number(response.headers.get('Retry-After')) };
  }

  function setStatus(text) {
    page.status.textContent = text;
  }

  function showAlert(message, list, focus) {
    page.alert.replaceChildren(element('p', message));
    if (list.length > 0) {
      const items = element('ul');
      for (const line of list) items.append(element('li', line));
      page.alert.append(items);
    }
    if (focus !== false) page.alert.focus();
  }

  function clearAlert() {
    page.alert.replaceChildren();
    page.retry.hidden = true;
  }

  function showRetry(label) {
    page.retry.textContent = label;
    page.retry.hidden = false;
  }

  function reference(body) {
    const requestId = body && body.error && body.error.requestId;
    return typeof requestId === 'string' ? ['Reference: ' + requestId] : [];
  }

  function hideInvoice() {
    invoice = null;
    page.merchant.textContent = '';
    page.notFound.hidden = true;
    page.outcome.hidden = true;
    page.invoice.hidden = true;
    page.form.hidden = true;
  }

  async function load(keepAlert) {
    const current = ++generation;
    slug = location.hash.slice(1);
    unsettled = null;
    if (!keepAlert) clearAlert();
    hideInvoice();
    page.heading.textContent = 'Invoice';
    if (!slugPattern.test(slug)) return showNotFound();
    setStatus('Loading the invoice…');
    let result = null;
    try {
      result = await postJson('pay/invoice', { slug });
    } catch (error) {
      result = null;
    }
    if (current !== generation) return;
    setStatus('');
    if (result === null) {
      showAlert('We couldn’t reach the server. Check your connection, then try again.', []);
    } else if (result.status === 200 && result.body !== null && Array.isArray(result.body.lineItems)) {
      return render(result.body, null);
    } else if (result.status === 404 || result.status === 400) {
      return showNotFound();
    } else if (result.status === 429) {
      showAlert('Too many requests. Wait a minute, then try again.', []);
    } else if (result.status === 503) {
      showAlert('Payments are not available right now. Try again later.', []);
    } else {
      showAlert('Something went wrong while loading the invoice. Try again.', reference(result.body));
    }
    showRetry('Try again');
  }

  // The same words whatever the reason (unknown, rotated or draft), so the page gives nothing away.
  function showNotFound() {
    generation++;
    hideInvoice();
    setStatus('');
    page.heading.textContent = 'Invoice not found';
    document.title = 'Invoice not found';
    page.notFound.hidden = false;
    page.heading.focus();
  }

  function render(view, payment) {
    invoice = view;
    page.merchant.textContent = view.merchantName;
    page.heading.textContent = 'Invoice ' + view.invoiceNumber;
    document.title = 'Invoice ' + view.invoiceNumber + ' · ' + view.merchantName;
    page.notFound.hidden = true;
    renderFacts(view);
    renderLines(view);
    renderTotals(view);
    page.invoice.hidden = false;

    const methods = view.acceptedPaymentMethods.filter((method) => method === 'card' || method === 'bank_account');
    const payable =
      (view.status === 'issued' || view.status === 'partially_paid') &&
      view.amountRemaining.amount > 0 &&
      methods.length > 0;
    if (payment !== null) {
      const text = ['Thank you. Your payment of ' + money(payment) + ' was received.'];
      if (payable) text.push(money(view.amountRemaining) + ' is still due.');
      text.push('Payment reference: ' + payment.paymentId);
      showOutcome('Payment received', text, true);
    } else if (view.status === 'paid') {
      const when = view.paidAt ? ' on ' + formatDate(view.paidAt) : '';
      showOutcome('This invoice is paid', ['It was paid in full' + when + '. Nothing more is due.'], true);
    } else if (view.status === 'void') {
      showOutcome('This invoice was voided', ['It can’t be paid. Contact ' + view.merchantName + ' with any questions.'], false);
    } else if (!payable) {
      showOutcome('This invoice can’t be paid here', ['Contact ' + view.merchantName + ' with any questions.'], false);
    } else {
      page.outcome.hidden = true;
    }
    if (payable) setUpForm(methods);
    else page.form.hidden = true;
  }

  function showOutcome(heading, paragraphs, ok) {
    page.outcomeHeading.textContent = heading;
    page.outcomeText.replaceChildren(...paragraphs.map((text) => element('p', text)));
    page.outcome.classList.toggle('ok', ok);
    page.outcome.hidden = false;
  }

  function renderFacts(view) {
    const facts = [['Status', statusLabels[view.status] || view.status]];
    if (view.dueDate) facts.push(['Due date', formatDate(view.dueDate)]);
    if (view.paidAt) facts.push(['Paid on', formatDate(view.paidAt)]);
    page.facts.replaceChildren();
    for (const [term, value] of facts) page.facts.append(element('dt', term), element('dd', value));
  }

  function renderLines(view) {
    page.lines.replaceChildren(
      ...view.lineItems.map((line) => {
        const unit = money({ amount: line.unitAmount, currency: view.currency });
        const description = element('td', line.description, 'description');
        description.append(element('span', line.quantity + ' × ' + unit, 'line-detail'));
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

  function renderTotals(view) {
    const totals = [['Total', money(view.total), '']];
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

  function setUpForm(methods) {
    const radios = Array.from(page.form.querySelectorAll('input[name="method"]'));
    for (const radio of radios) radio.closest('label').hidden = !methods.includes(radio.value);
    if (!methods.includes(selectedMethod())) {
      for (const radio of radios) radio.checked = radio.value === methods[0];
    }
    page.methods.hidden = methods.length < 2;
    showMethod();
    page.submit.textContent = payLabel();
    page.form.hidden = false;
  }

  function selectedMethod() {
    const checked = page.form.querySelector('input[name="method"]:checked');
    return checked === null ? '' : checked.value;
  }

  function showMethod() {
    const method = selectedMethod();
    // A disabled fieldset also takes the hidden method's fields out of the tab order.
    page.card.hidden = method !== 'card';
    page.card.disabled = method !== 'card';
    page.bank.hidden = method !== 'bank_account';
    page.bank.disabled = method !== 'bank_account';
  }

  function payLabel() {
    return invoice === null ? 'Pay' : 'Pay ' + money(invoice.amountRemaining);
  }

  function markField(id, message) {
    const input = byId(id);
    input.setAttribute('aria-invalid', 'true');
    byId(id + '-error').textContent = message;
  }

  function clearFieldErrors() {
    for (const id of Object.keys(fieldLabels)) {
      byId(id).removeAttribute('aria-invalid');
      byId(id + '-error').textContent = '';
    }
  }

  // Spaces and dashes people type to group digits are dropped before anything is checked or sent.
  function digitsOf(id) {
    return byId(id).value.replace(/[\s-]/g, '');
  }

  function collect(method) {
    const errors = [];
    const digits = (id, message) => {
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
    if (!/^\d{4}$/.test(year)) errors.push(['card-exp-year', 'Enter the expiry year with 4 digits, like 2030.']);
    const cvc = digits('card-cvc', 'Enter the security code, using digits only.');
    return {
      errors,
      paymentMethod: { type: 'card', number, expMonth: Number(month), expYear: Number(year), cvc },
    };
  }

  function setBusy(value) {
    busy = value;
    page.form.setAttribute('aria-busy', String(value));
    page.submit.setAttribute('aria-disabled', String(value));
    page.submit.textContent = value ? 'Processing…' : payLabel();
    setStatus(value ? 'Processing the payment…' : '');
  }

  async function pay() {
    if (busy || invoice === null) return;
    clearAlert();
    clearFieldErrors();
    const details = collect(selectedMethod());
    if (details.errors.length > 0) {
      for (const [id, message] of details.errors) markField(id, message);
      showAlert(
        'Check the payment details:',
        details.errors.map(([, message]) => message),
        false,
      );
      byId(details.errors[0][0]).focus();
      return;
    }
    const body = { slug, amount: invoice.amountRemaining.amount, paymentMethod: details.paymentMethod };
    const fingerprint = JSON.stringify(body);
    const key = unsettled !== null && unsettled.fingerprint === fingerprint ? unsettled.key : newKey();
    unsettled = { fingerprint, key };
    const current = generation;
    setBusy(true);
    let result = null;
    try {
      result = await postJson('pay/payments', body, { 'Idempotency-Key': key });
    } catch (error) {
      result = null;
    }
    setBusy(false);
    if (current !== generation) return;
    await settle(result);
  }

  async function settle(result) {
    if (result === null) {
      showAlert('We couldn’t reach the server, so we can’t tell whether the payment went through.', [
        'Try again: the same payment is never taken twice.',
      ]);
      return;
    }
    const body = result.body || {};
    if (result.status === 201 && body.payment && body.invoice) {
      unsettled = null;
      if (body.payment.status === 'completed') {
        page.form.reset();
        clearFieldErrors();
        render(body.invoice, body.payment);
        page.outcomeHeading.focus();
      } else {
        render(body.invoice, null);
        showAlert(body.payment.declineMessage || 'The payment was declined.', []);
      }
      return;
    }
    const error = body.error || {};
    const unknownOutcome = result.status >= 500 || error.code === 'idempotency_in_progress';
    if (!unknownOutcome) unsettled = null;
    if (result.status === 400 && error.code === 'validation_error') {
      const details = Array.isArray(error.details) ? error.details : [];
      const messages = details.map((detail) => {
        const id = fieldOfPath[detail.path];
        if (id === undefined) return detail.message;
        markField(id, detail.message);
        return fieldLabels[id] + ': ' + detail.message;
      });
      showAlert(error.message || 'Some payment details are not valid.', messages);
    } else if (result.status === 404) {
      showNotFound();
    } else if (result.status === 409 && error.code === 'invalid_state') {
      showAlert(error.message || 'This invoice can’t take that payment now.', [
        'The invoice was reloaded: check it before you pay.',
      ]);
      await load(true);
    } else if (result.status === 409) {
      showAlert('A payment for this invoice is already being processed.', [
        'Wait a moment, then reload the invoice to see its result.',
      ]);
      showRetry('Reload the invoice');
    } else if (result.status === 429 && result.retryAfter > 0) {
      // Only the cap on declined payments of this invoice says how long it lasts.
      const minutes = Math.ceil(result.retryAfter / 60);
      showAlert('This invoice can’t take more payment attempts for now.', [
        'Try again in ' + minutes + (minutes === 1 ? ' minute.' : ' minutes.'),
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
    pay();
  });
  page.methods.addEventListener('change', showMethod);
  page.retry.addEventListener('click', () => load(false));
  window.addEventListener('hashchange', () => load(false));
  load(false);
})();
`;

const body = `
<main>
  <header>
    <p id="merchant" class="merchant"></p>
    <h1 id="heading" tabindex="-1">Invoice</h1>
  </header>
  <noscript><p class="alert">This page needs JavaScript to show and pay the invoice.</p></noscript>
  <p id="status" class="status" role="status" aria-live="polite"></p>
  <div id="alert" class="alert" role="alert" tabindex="-1"></div>
  <button type="button" id="retry" class="secondary" hidden>Try again</button>
  <p id="not-found" class="status" hidden>Check the link, or ask the sender for a new one.</p>
  <section id="outcome" class="panel outcome" aria-labelledby="outcome-heading" hidden>
    <h2 id="outcome-heading" tabindex="-1"></h2>
    <div id="outcome-text"></div>
  </section>
  <section id="invoice" class="panel" aria-label="Invoice details" hidden>
    <dl id="facts" class="facts"></dl>
    <table>
      <caption>Invoice lines</caption>
      <thead>
        <tr>
          <th scope="col">Description</th>
          <th scope="col" class="num wide">Qty</th>
          <th scope="col" class="num wide">Unit price</th>
          <th scope="col" class="num">Amount</th>
        </tr>
      </thead>
      <tbody id="lines"></tbody>
    </table>
    <dl id="totals" class="totals"></dl>
  </section>
  <form id="pay-form" class="panel" method="post" novalidate aria-labelledby="pay-heading" hidden>
    <h2 id="pay-heading">Pay this invoice</h2>
    <fieldset id="methods" class="choices">
      <legend>Payment method</legend>
      <label><input type="radio" name="method" value="card" checked> Card</label>
      <label><input type="radio" name="method" value="bank_account"> Bank account</label>
    </fieldset>
    <fieldset id="card">
      <legend>Card details</legend>
      <div class="field">
        <label for="card-number">Card number</label>
        <input type="text" id="card-number" inputmode="numeric" autocomplete="cc-number"
          aria-describedby="card-number-error" spellcheck="false">
        <p id="card-number-error" class="field-error"></p>
      </div>
      <div class="row">
        <div class="field">
          <label for="card-exp-month">Expiry month</label>
          <input type="text" id="card-exp-month" inputmode="numeric" autocomplete="cc-exp-month" maxlength="2"
            placeholder="MM" aria-describedby="card-exp-month-error">
          <p id="card-exp-month-error" class="field-error"></p>
        </div>
        <div class="field">
          <label for="card-exp-year">Expiry year</label>
          <input type="text" id="card-exp-year" inputmode="numeric" autocomplete="cc-exp-year" maxlength="4"
            placeholder="YYYY" aria-describedby="card-exp-year-error">
          <p id="card-exp-year-error" class="field-error"></p>
        </div>
        <div class="field">
          <label for="card-cvc">Security code</label>
          <input type="text" id="card-cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4"
            aria-describedby="card-cvc-error">
          <p id="card-cvc-error" class="field-error"></p>
        </div>
      </div>
    </fieldset>
    <fieldset id="bank" hidden disabled>
      <legend>Bank account details</legend>
      <div class="field">
        <label for="bank-routing">Routing number</label>
        <input type="text" id="bank-routing" inputmode="numeric" autocomplete="off"
          aria-describedby="bank-routing-error" spellcheck="false">
        <p id="bank-routing-error" class="field-error"></p>
      </div>
      <div class="field">
        <label for="bank-account">Account number</label>
        <input type="text" id="bank-account" inputmode="numeric" autocomplete="off"
          aria-describedby="bank-account-error" spellcheck="false">
        <p id="bank-account-error" class="field-error"></p>
      </div>
    </fieldset>
    <button type="submit" id="submit">Pay</button>
  </form>
</main>`;

/** The whole pay page. */
export const payPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>Pay invoice</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>${body}
<script>${script}</script>
</body>
</html>
`;

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The page's Content-Security-Policy: nothing but its own inline script and style (by hash) and
 * fetches to its own origin. `form-action 'none'` also keeps a form the script failed to take over
 * from ever being submitted with card details.
 */
export const payPageContentSecurityPolicy = [
  "default-src 'none'",
  `script-src ${sha256Source(script)}`,
  `style-src ${sha256Source(style)}`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
