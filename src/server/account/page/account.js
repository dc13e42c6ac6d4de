// The account settings page: signs in with an API key (exchanged for a session cookie; the key is
// not kept), then shows the balance, the keys, the pack switches and a chart of credits spent.
// Every change sends the session's CSRF token, held only in this script's memory.

const SVG = 'http://www.w3.org/2000/svg';
/** Colours with at least 3:1 contrast on white, told apart also by the legend's order and the bars' titles. */
const PALETTE = ['#1f5fa8', '#b34700', '#2e7d32', '#8e24aa', '#00796b', '#c62828', '#5d4037', '#455a64'];
let csrfToken = null;

const $ = (id) => document.getElementById(id);
const element = (name, attributes = {}, text) => {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
};
const svgElement = (name, attributes = {}, text) => {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
};
const say = (message, isError = false) => {
  const status = $('status');
  status.textContent = message;
  status.classList.toggle('error', isError);
};
const shortDate = (iso) => (iso ? iso.slice(0, 10) : 'never');

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken && method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/account/api/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(answer.error?.message ?? `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return answer;
}

function showSignIn(message) {
  csrfToken = null;
  $('settings').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in').hidden = false;
  if (message) say(message, true);
  $('api-key').focus();
}

async function showSettings() {
  const overview = await api('GET', 'overview');
  $('sign-in').hidden = true;
  $('settings').hidden = false;
  $('sign-out').hidden = false;
  $('balance').textContent = overview.account.balance.toLocaleString('en');
  $('account-name').textContent = overview.account.name;
  renderKeys(overview.keys);
  renderPacks(overview.account.packs, overview.pack_titles);
  renderChart(overview.usage);
}

function renderKeys(keys) {
  const body = $('keys').tBodies[0];
  body.replaceChildren();
  for (const key of keys) {
    const row = element('tr', { 'data-key-id': key.id });
    const label = key.name ?? '(no name)';
    const nameCell = element('td', {}, label);
    if (key.in_use) nameCell.append(' ', element('span', { class: 'badge' }, 'this session'));
    const prefixCell = element('td');
    prefixCell.append(element('code', {}, `${key.prefix}…`));
    row.append(nameCell, prefixCell, element('td', {}, shortDate(key.created_at)), element('td', {}, shortDate(key.last_used_at)));
    const remove = element('button', { type: 'button', class: 'danger', 'aria-label': `Delete key ${label} (${key.prefix}…)` }, 'Delete');
    remove.addEventListener('click', () => confirmDelete(key, label));
    const actions = element('td');
    actions.append(remove);
    row.append(actions);
    body.append(row);
  }
}

function confirmDelete(key, label) {
  const dialog = $('confirm-delete');
  $('confirm-delete-text').textContent = key.in_use
    ? `"${label}" (${key.prefix}…) is the key this session was opened with: deleting it signs you out. Programs using it stop working at once.`
    : `"${label}" (${key.prefix}…) stops working at once, for every program that uses it.`;
  dialog.returnValue = '';
  dialog.addEventListener('close', async function onClose() {
    dialog.removeEventListener('close', onClose);
    if (dialog.returnValue !== 'delete') return;
    try {
      const answer = await api('DELETE', `keys/${encodeURIComponent(key.id)}`);
      if (answer.was_in_use) return showSignIn('Key deleted. It was the key of this session: sign in with another key.');
      say(`Key "${label}" deleted.`);
      await showSettings();
    } catch (error) {
      say(`Could not delete the key: ${error.message}`, true);
    }
  });
  dialog.showModal();
}

function renderPacks(settings, titles) {
  const list = $('packs');
  list.replaceChildren();
  for (const [pack, enabled] of Object.entries(settings)) {
    const item = element('li');
    const id = `pack-${pack}`;
    const input = element('input', { type: 'checkbox', role: 'switch', id, 'data-pack': pack });
    input.checked = enabled;
    input.addEventListener('change', async () => {
      input.disabled = true;
      try {
        await api('PUT', `packs/${encodeURIComponent(pack)}`, { enabled: input.checked });
        say(`${titles[pack] ?? pack} switched ${input.checked ? 'on' : 'off'}.`);
      } catch (error) {
        input.checked = !input.checked;
        say(`Could not switch ${titles[pack] ?? pack}: ${error.message}`, true);
      } finally {
        input.disabled = false;
        input.focus();
      }
    });
    item.append(input, element('label', { for: id }, titles[pack] ?? pack));
    list.append(item);
  }
}

/** Credits per day, stacked by tool, as SVG; the numbers also in a table for screen readers and copying. */
function renderChart(usage) {
  const tools = usage.by_tool.filter((tool) => tool.credits > 0).map((tool) => tool.tool);
  const colour = (tool) => PALETTE[tools.indexOf(tool) % PALETTE.length];
  const days = usage.by_day;
  const max = Math.max(1, ...days.map((day) => day.credits));
  const width = 720;
  const height = 240;
  const left = 44;
  const bottom = 28;
  const plotHeight = height - bottom - 10;
  const step = (width - left - 8) / days.length;
  const svg = svgElement('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc', class: 'chart' });
  svg.append(svgElement('title', { id: 'chart-title' }, 'Credits spent per day and per tool'));
  svg.append(svgElement('desc', { id: 'chart-desc' }, `${usage.total.credits} credits in ${usage.total.calls} calls from ${usage.from} to ${usage.to}.`));
  for (const fraction of [0, 0.5, 1]) {
    const y = 10 + plotHeight * (1 - fraction);
    svg.append(svgElement('line', { x1: left, x2: width - 8, y1: y, y2: y, stroke: '#d0d4d9' }));
    svg.append(svgElement('text', { x: left - 6, y: y + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#333' }, String(Math.round(max * fraction))));
  }
  days.forEach((day, index) => {
    const x = left + index * step + 1;
    let top = 10 + plotHeight;
    for (const entry of usage.by_day_and_tool.filter((entry) => entry.date === day.date && entry.credits > 0)) {
      const barHeight = (entry.credits / max) * plotHeight;
      top -= barHeight;
      const bar = svgElement('rect', { x, y: top, width: Math.max(1, step - 2), height: barHeight, fill: colour(entry.tool), 'data-tool': entry.tool });
      bar.append(svgElement('title', {}, `${day.date}: ${entry.tool}, ${entry.credits} credits in ${entry.calls} calls`));
      svg.append(bar);
    }
    // Today and every seventh day before it.
    if ((days.length - 1 - index) % 7 === 0) {
      svg.append(svgElement('text', { x: x + step / 2, y: height - 8, 'text-anchor': 'middle', 'font-size': 11, fill: '#333' }, day.date.slice(5)));
    }
  });
  $('chart').replaceChildren(svg);
  $('chart-caption').textContent =
    usage.total.credits > 0
      ? `${usage.total.credits} credits in ${usage.total.calls} calls from ${usage.from} to ${usage.to}.`
      : `No credits spent from ${usage.from} to ${usage.to}.`;
  const legend = $('chart-legend');
  legend.replaceChildren(
    ...tools.map((tool) => {
      const item = element('li');
      const swatch = svgElement('svg', { width: 12, height: 12, 'aria-hidden': 'true' });
      swatch.append(svgElement('rect', { width: 12, height: 12, fill: colour(tool) }));
      item.append(swatch, ` ${tool}`);
      return item;
    }),
  );
  $('usage-by-tool').tBodies[0].replaceChildren(
    ...usage.by_tool.map((tool) => {
      const row = element('tr');
      row.append(element('th', { scope: 'row' }, tool.tool), element('td', {}, String(tool.calls)), element('td', {}, String(tool.credits)));
      return row;
    }),
  );
}

$('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('api-key');
  const key = input.value;
  input.value = '';
  try {
    csrfToken = (await api('POST', 'session', { key })).csrf_token;
    say('Signed in.');
    await showSettings();
  } catch (error) {
    showSignIn(`Sign-in refused: ${error.message}`);
  }
});

$('create-key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = $('new-key-name').value.trim();
  try {
    const created = await api('POST', 'keys', name ? { name } : {});
    $('new-key-name').value = '';
    await showSettings();
    $('new-key-value').value = created.key;
    $('new-key').hidden = false;
    $('new-key-title').focus();
    say(`Key "${created.name ?? created.prefix}" created. Copy it now: it is shown only once.`);
  } catch (error) {
    say(`Could not create the key: ${error.message}`, true);
  }
});

$('copy-key').addEventListener('click', async () => {
  const field = $('new-key-value');
  try {
    await navigator.clipboard.writeText(field.value);
    say('Key copied to the clipboard.');
  } catch {
    field.select();
    say('Select and copy the key with your keyboard (Ctrl+C or ⌘C).');
  }
});

$('hide-key').addEventListener('click', () => {
  $('new-key-value').value = '';
  $('new-key').hidden = true;
  say('The new key is hidden and cannot be shown again.');
  $('new-key-name').focus();
});

$('sign-out').addEventListener('click', async () => {
  try {
    await api('DELETE', 'session');
  } finally {
    showSignIn();
    say('Signed out.');
  }
});

// A session of this browser may still be open (the cookie is HttpOnly: only the server can tell).
api('GET', 'session')
  .then(async (session) => {
    if (!session.signed_in) return showSignIn();
    csrfToken = session.csrf_token;
    await showSettings();
  })
  .catch((error) => showSignIn(`Could not reach the server: ${error.message}`));
