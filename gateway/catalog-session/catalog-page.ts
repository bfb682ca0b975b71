import { pageHeaders } from '../../inspector/page-security';

// The catalog page at the launch URL: plain HTML and one small inline script, no build step,
// nothing fetched from elsewhere. It reads the session token from the URL fragment, keeps it
// in sessionStorage (so a reload still works) and calls the session API with it. Data from
// the server is only ever put in the page as text (textContent), never as HTML.

const STYLE = `
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; max-width: 60rem; color: #222; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.1rem; margin-top: 1.5rem; }
table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid #ddd; padding: .3rem .5rem; text-align: left; }
.error { color: #a00; } .muted { color: #666; } input[type=number] { width: 5rem; }
`;

const SCRIPT = `
'use strict';
const $ = (id) => document.getElementById(id);
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get('token')) {
  sessionStorage.setItem('catalogToken', fragment.get('token'));
  history.replaceState(null, '', location.pathname);
}
const token = sessionStorage.getItem('catalogToken');

function cell(row, text) { const td = document.createElement('td'); td.textContent = text; row.appendChild(td); return td; }
function showError(message) { $('error').textContent = message; }
function money(n) { return n.toFixed(2); }

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: Object.assign({ authorization: 'Bearer ' + token }, body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || ('HTTP ' + response.status));
  showError('');
  return data;
}

function renderCart(cart) {
  const rows = $('cart-items');
  rows.replaceChildren();
  for (const item of cart.items) {
    const row = document.createElement('tr');
    row.dataset.testid = 'cart-item';
    cell(row, item.mfr_code + ' ' + item.part_number);
    cell(row, item.description);
    cell(row, item.location_description + ' (' + item.location_id + ')');
    const qty = document.createElement('input');
    qty.type = 'number'; qty.min = '1'; qty.value = String(item.quantity); qty.setAttribute('aria-label', 'quantity of ' + item.part_number);
    qty.addEventListener('change', () => api('PATCH', 'api/cart/items/' + item.id, { quantity: Number(qty.value) }).then(renderCart, (e) => showError(e.message)));
    cell(row, '').appendChild(qty);
    cell(row, money(item.price));
    const remove = document.createElement('button');
    remove.textContent = 'Remove';
    remove.addEventListener('click', () => api('DELETE', 'api/cart/items/' + item.id).then(renderCart, (e) => showError(e.message)));
    cell(row, '').appendChild(remove);
    rows.appendChild(row);
  }
  $('cart-total').textContent = money(cart.total);
  $('cart-empty').hidden = cart.items.length > 0;
}

async function showOffers(product) {
  const offer = await api('POST', 'api/availability', { sku: product.sku });
  $('offer-title').textContent = product.brand + ' ' + product.part_number + ' — ' + product.description;
  const select = $('offer-location');
  select.replaceChildren();
  for (const l of offer.locations) {
    const option = document.createElement('option');
    option.value = l.id;
    option.disabled = !l.can_order;
    option.textContent = l.description + ' (' + l.id + '): ' + money(l.price) + ', ' + l.quantity_available + ' available' + (l.can_order ? '' : ', cannot order here');
    select.appendChild(option);
  }
  const first = offer.locations.find((l) => l.can_order);
  if (first) select.value = first.id;
  $('offer-quantity').value = '1';
  $('offer-none').hidden = offer.locations.length > 0;
  $('offer-add').disabled = !first;
  $('offer').hidden = false;
  $('offer-add').onclick = () =>
    api('POST', 'api/cart/items', { sku: product.sku, location_id: select.value, quantity: Number($('offer-quantity').value) })
      .then(renderCart, (e) => showError(e.message));
}

async function search(event) {
  event.preventDefault();
  const result = await api('GET', '/search/products?query=' + encodeURIComponent($('query').value));
  const rows = $('results');
  rows.replaceChildren();
  for (const product of result.results) {
    const row = document.createElement('tr');
    row.dataset.testid = 'search-result';
    cell(row, product.brand + ' ' + product.part_number);
    cell(row, product.description);
    cell(row, money(product.list_price));
    const choose = document.createElement('button');
    choose.textContent = 'Prices';
    choose.addEventListener('click', () => showOffers(product).catch((e) => showError(e.message)));
    cell(row, '').appendChild(choose);
    rows.appendChild(row);
  }
  $('results-none').hidden = result.results.length > 0;
}

async function start() {
  if (!token) { showError('No catalog session: open the launch URL your buyer system gave you.'); return; }
  const session = await api('GET', 'api/session');
  $('session').textContent = 'Buyer ' + session.username + ', cart ' + session.cart_id + ', session ends ' + new Date(session.expires_at).toLocaleTimeString();
  renderCart(await api('GET', 'api/cart'));
  $('search').addEventListener('submit', (e) => search(e).catch((err) => showError(err.message)));
  $('search-button').disabled = false;
}
start().catch((e) => showError(e.message));
`;

const BODY = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Parts catalog</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Parts catalog</h1>
<p id="session" class="muted"></p>
<p id="error" class="error" role="alert"></p>
<form id="search">
  <label>Search products <input id="query" name="query" type="search" required placeholder="e.g. brake pad"></label>
  <button id="search-button" type="submit" disabled>Search</button>
</form>
<table><tbody id="results"></tbody></table>
<p id="results-none" class="muted" hidden>No products match.</p>
<section id="offer" hidden>
  <h2 id="offer-title"></h2>
  <p id="offer-none" class="muted" hidden>None of your locations offers this part.</p>
  <label>Location <select id="offer-location"></select></label>
  <label>Quantity <input id="offer-quantity" type="number" min="1" value="1"></label>
  <button id="offer-add" type="button">Add to cart</button>
</section>
<h2>Cart</h2>
<table>
  <thead><tr><th>Part</th><th>Description</th><th>Location</th><th>Quantity</th><th>Price</th><th></th></tr></thead>
  <tbody id="cart-items"></tbody>
</table>
<p id="cart-empty" class="muted">The cart is empty.</p>
<p>Total: <span id="cart-total">0.00</span></p>
<script>${SCRIPT}</script>
</body>
</html>
`;

/** Only this page's own script and style run; it talks to this origin only, and is framed by nobody. */
export const CATALOG_PAGE_HEADERS: Record<string, string> = pageHeaders(STYLE, SCRIPT);

export const catalogPage = (): string => BODY;
