// The admin UI: one ES module, no framework. Every value from the server is put in the page with textContent, never
// as HTML. Errors from the API are shown to the person with the server's own message (its problem "detail").

const API = '/api/v1';
const session = { user: null, role: null, csrf: null };
const charts = new Map();
let refreshTimer = null;

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

class ApiError extends Error {
  constructor(status, problem) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.field = problem ? problem.field : undefined;
  }
}

async function api(method, path, body, version) {
  const headers = {};
  if (version !== undefined) headers['If-Match'] = `"${version}"`;
  if (method !== 'GET') headers['X-CSRF-Token'] = session.csrf || '';
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(API + path, {
    method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const isJson = (response.headers.get('Content-Type') || '').includes('json');
  const data = isJson ? await response.json() : null;
  if (!response.ok) {
    if (response.status === 401 && path !== '/session') showLogin();
    throw new ApiError(response.status, data);
  }
  return data;
}

function say(text, ok = false) {
  const m = $('message');
  m.textContent = text;
  m.className = ok ? 'ok' : '';
  m.hidden = !text;
}

function canWrite() {
  return session.role === 'operator' || session.role === 'admin';
}

function showLogin() {
  clearInterval(refreshTimer);
  for (const id of ['topology-page', 'groups-page', 'policy-page', 'audit-page']) $(id).hidden = true;
  $('nav').hidden = true;
  $('who').hidden = true;
  $('login-page').hidden = false;
  $('login-user').focus();
}

async function start() {
  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const s = await api('POST', '/session', { user: $('login-user').value, password: $('login-password').value });
      Object.assign(session, { user: s.user, role: s.role, csrf: s.csrfToken });
      $('login-password').value = '';
      say('');
      enter();
    } catch (e) {
      say(e.message);
    }
  });
  $('logout').addEventListener('click', async () => {
    try {
      await api('DELETE', '/session');
    } catch (e) {
      say(e.message);
    }
    Object.assign(session, { user: null, role: null, csrf: null });
    showLogin();
  });
  $('create-group').addEventListener('submit', createGroup);
  $('edit-group-form').addEventListener('submit', saveEdit);
  $('policy-form').addEventListener('submit', (event) => { event.preventDefault(); runPolicy('validate'); });
  $('policy-explain').addEventListener('click', () => runPolicy('explain'));
  $('parked-close').addEventListener('click', () => { $('parked-panel').hidden = true; });
  $('snapshot-close').addEventListener('click', () => { $('snapshot-panel').hidden = true; });
  $('snapshot-form').addEventListener('submit', (event) => { event.preventDefault(); snapshotAct('start'); });
  for (const action of ['pause', 'resume', 'cancel']) $(`snapshot-${action}`).addEventListener('click', () => snapshotAct(action));
  $('parked-replay-all').addEventListener('click', () => parkedAct('replay', {}));
  $('parked-discard-all').addEventListener('click', () => askDiscard({}, 'all parked changes of the group'));
  $('parked-discard-confirm').addEventListener('click', () => parkedAct('discard', parked.discard));
  $('edit-close').addEventListener('click', () => { $('edit-group-form').hidden = true; });
  $('reset-form').addEventListener('submit', (event) => { event.preventDefault(); resetDryRun(); });
  $('reset-to').addEventListener('change', showResetInputs);
  $('reset-confirm').addEventListener('click', resetConfirm);
  $('reset-cancel-pending').addEventListener('click', resetCancelPending);
  $('reset-close').addEventListener('click', () => { $('reset-form').hidden = true; reset.target = null; });
  $('refresh').addEventListener('click', () => render());
  window.addEventListener('hashchange', () => render());
  const s = await api('GET', '/session');
  if (s.authenticated) {
    Object.assign(session, { user: s.user, role: s.role, csrf: s.csrfToken });
    enter();
  } else {
    showLogin();
  }
}

function enter() {
  $('login-page').hidden = true;
  $('nav').hidden = false;
  $('who').hidden = false;
  $('who-name').textContent = `${session.user} (${session.role})`;
  for (const e of document.querySelectorAll('.operator-only')) e.hidden = !canWrite();
  clearInterval(refreshTimer);
  refreshTimer = setInterval(() => render(false), 5000);
  render();
}

async function render(announce = true) {
  const page = (location.hash || '#topology').substring(1);
  for (const name of ['topology', 'groups', 'policy', 'audit']) {
    $(`${name}-page`).hidden = name !== page;
    if (name === page) $(`nav-${name}`).setAttribute('aria-current', 'page'); else $(`nav-${name}`).removeAttribute('aria-current');
  }
  try {
    if (page === 'topology') await renderTopology();
    else if (page === 'groups') await renderGroups();
    else if (page === 'audit') await renderAudit();
  } catch (e) {
    if (announce || e.status === 503) say(e.message);
  }
}

function fillTable(table, rows) {
  const body = table.tBodies[0];
  body.replaceChildren(...rows.map((cells) => el('tr', {}, ...cells.map((c) => (c instanceof Node ? el('td', {}, c) : el('td', { text: c ?? '' }))))));
}

async function renderTopology() {
  const [c, relays] = await Promise.all([api('GET', '/cluster'), api('GET', '/relays')]);
  $('cluster-name').textContent = c.cluster;
  $('controller').textContent = c.controller ?? 'none';
  fillTable($('instances'), c.instances.map((i) => [i.name, i.endpoint, i.live ? 'yes' : 'no', i.enabled ? 'yes' : 'no', i.tags.join(', '),
    !canWrite() ? '' : i.enabled
      ? button('Disable', `disable-${i.name}`, () => api('POST', `/instances/${encodeURIComponent(i.name)}/disable`), renderTopology)
      : button('Enable', `enable-${i.name}`, () => api('POST', `/instances/${encodeURIComponent(i.name)}/enable`), renderTopology)]));
  const resources = c.resources.filter((r) => r.kind === 'relay');
  fillTable($('relays'), resources.map((r) => [r.name, String(r.partitions), String(r.replicas),
    r.partitionStates.map((p) => `${p.partition}: ${Object.keys(p.states).filter((k) => p.states[k] === 'ONLINE').join(' ') || '-'}`).join('; ')]));
  const rows = [];
  for (const r of relays) {
    const name = `${r.instance}${r.enabled ? '' : ' (disabled)'}`;
    if (r.sources.length === 0) {
      rows.push([name, r.error ?? r.health ?? (r.live ? '' : 'not live'), '', '', '', '', '', '', '']);
    }
    for (const s of r.sources) {
      rows.push([name, r.health ?? '', s.source, s.oldestScn == null ? `… ${s.newestScn ?? ''}` : `${s.oldestScn} … ${s.newestScn}`,
        s.fetchState + (s.fetchDetail ? `: ${s.fetchDetail}` : ''), s.sourceHealth ?? '', s.serving ?? '',
        s.lagMillis == null ? '—' : String(s.lagMillis),
        (s.policies.map((p) => `${p.name} v${p.version}`).join(', ') || 'none') + (s.policyReloadError ? ` (reload failed: ${s.policyReloadError})` : '')]);
    }
  }
  fillTable($('relay-status'), rows);
}

function button(text, id, action, after = renderGroups) {
  const b = el('button', { type: 'button', id, text });
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      await action();
      await after();
    } catch (e) {
      say(e.message);
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

async function renderGroups() {
  const groups = await api('GET', '/groups');
  const host = $('groups');
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
  if (groups.length === 0) {
    host.replaceChildren(el('p', { text: 'No consumer groups yet.' }));
    return;
  }
  host.replaceChildren(...groups.map(groupBox));
  // follows the load while the panel is open; not awaited: a slow target must not hold up the groups and charts
  if (!$('snapshot-panel').hidden) showSnapshot(snapshotGroup, false);
  const histories = await Promise.all(groups.map((g) => api('GET', `/groups/${encodeURIComponent(g.name)}/history`)));
  groups.forEach((g, i) => {
    drawLag(g);
    drawRate(g, histories[i]);
  });
}

const COLOURS = ['#1f3a5f', '#c05621', '#2f855a', '#6b46c1', '#b83280', '#2c7a7b', '#975a16', '#4a5568'];

function drawRate(g, history) {
  const canvas = $(`rate-${g.name}`);
  if (!window.Chart || !canvas) return;
  const series = Object.entries(history.partitions);
  const longest = series.reduce((a, [, points]) => (points.length > a.length ? points : a), []);
  const time = (ms) => new Date(ms).toISOString().substring(11, 19);
  charts.set(`rate-${g.name}`, new window.Chart(canvas, {
    type: 'line',
    data: {
      labels: longest.map((p) => time(p.millis)),
      datasets: series.map(([partition, points], i) => ({
        label: `p${partition}`, data: points.map((p) => p.eventsPerSecond), borderColor: COLOURS[i % COLOURS.length],
        backgroundColor: COLOURS[i % COLOURS.length], spanGaps: false, pointRadius: 0,
      })),
    },
    options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true, title: { display: true, text: 'applied events/s' } } },
      plugins: { title: { display: true, text: 'applied events/s, last 15 minutes (UTC)' } } },
  }));
  canvas.dataset.points = String(series.reduce((n, [, points]) => n + points.filter((p) => p.eventsPerSecond != null).length, 0));
}

function groupBox(g) {
  const title = el('h3', { text: `${g.name} — ${g.partitions} partitions, ${g.replicas} replicas` });
  if (g.paused) title.append(el('span', { class: 'paused', text: ' (paused)' }));
  const box = el('div', { class: 'group', id: `group-${g.name}` }, title);
  if (canWrite()) {
    const name = encodeURIComponent(g.name);
    // every write carries the version this page was rendered from: a change made meanwhile is refused (409)
    box.append(g.paused
      ? button('Resume group', `resume-${g.name}`, () => api('POST', `/groups/${name}/resume`, undefined, g.version))
      : button('Pause group', `pause-${g.name}`, () => api('POST', `/groups/${name}/pause`, undefined, g.version)));
    box.append(' ', button('Change…', `edit-${g.name}`, async () => openEdit(g)));
    box.append(' ', button('Delete group', `delete-${g.name}`, async () => {
      if (window.confirm(`Delete group ${g.name} and its checkpoints?`)) await api('DELETE', `/groups/${name}`, undefined, g.version);
    }));
  }
  box.append(' ', button('Parked changes…', `show-parked-${g.name}`, () => showParked(g.name), async () => {}));
  box.append(' ', button('Snapshot progress…', `show-snapshot-${g.name}`, () => showSnapshot(g.name), async () => {}));
  const head = el('tr', {}, ...['Partition', 'Leader', 'Standbys', 'Checkpoint SCN', 'Behind (SCN)', 'Lag (ms)', 'Snapshot', 'State', '', '']
    .map((h) => el('th', { text: h })));
  const rows = g.partitionStates.map((p) => {
    const action = !canWrite() || g.paused ? '' : p.paused
      ? button('Resume', `resume-${g.name}-${p.partition}`, () => api('POST', `/groups/${encodeURIComponent(g.name)}/partitions/${p.partition}/resume`, undefined, g.version))
      : button('Pause', `pause-${g.name}-${p.partition}`, () => api('POST', `/groups/${encodeURIComponent(g.name)}/partitions/${p.partition}/pause`, undefined, g.version));
    const tr = el('tr', { 'data-partition': String(p.partition) },
      el('td', { class: 'num', text: String(p.partition) }),
      el('td', { class: 'leader', text: p.leader ?? '—' }),
      el('td', { text: p.standbys.join(', ') }),
      el('td', { class: 'num', text: p.checkpointScn ?? '—' }),
      el('td', { class: 'num', text: p.scnBehind ?? '—' }),
      el('td', { class: 'num', text: p.lagMillis == null ? '—' : String(p.lagMillis) }),
      el('td', { class: 'snapshot', text: snapshotText(p.snapshot) }),
      el('td', { class: p.paused ? 'paused state' : 'state', text: p.paused ? 'paused' : (p.leader ? 'running' : 'no leader') }),
      el('td', {}, action),
      el('td', {}, canWrite() ? button('Reset…', `reset-${g.name}-${p.partition}`, () => openReset(g.name, p.partition)) : ''));
    return tr;
  });
  box.append(el('div', { class: 'table-wrap' }, el('table', { class: 'partitions' }, el('thead', {}, head), el('tbody', {}, ...rows))));
  box.append(el('div', { class: 'charts' },
    el('div', { class: 'chart' }, el('canvas', { id: `rate-${g.name}`, 'aria-label': `applied events per second of ${g.name} over the last 15 minutes`, role: 'img' })),
    el('div', { class: 'chart' }, el('canvas', { id: `lag-${g.name}`, 'aria-label': `lag per partition of ${g.name}`, role: 'img' }))));
  return box;
}

const COUNT = new Intl.NumberFormat('en');

/** A partition's snapshot load as its leader published it: table n of m, chunks and rows applied; '—' for none. */
function snapshotText(s) {
  if (!s) return '—';
  const applied = `${COUNT.format(s.chunks)} chunk${s.chunks === 1 ? '' : 's'}, ${COUNT.format(s.rows)} row${s.rows === 1 ? '' : 's'}`;
  return s.state === 'done' ? `done (${s.tables} table${s.tables === 1 ? '' : 's'}; ${applied})`
    : `${s.table} (table ${s.tableNumber} of ${s.tables}): ${applied}`;
}

function drawLag(g) {
  const canvas = $(`lag-${g.name}`);
  if (!window.Chart || !canvas) return;
  charts.set(g.name, new window.Chart(canvas, {
    type: 'bar',
    data: {
      labels: g.partitionStates.map((p) => `p${p.partition}`),
      datasets: [{ label: 'lag at last report (ms)', data: g.partitionStates.map((p) => p.lagMillis ?? 0), backgroundColor: '#1f3a5f' }],
    },
    options: { animation: false, maintainAspectRatio: false, scales: { y: { beginAtZero: true } } },
  }));
}

function sayAtForm(text, ok = false) {
  const m = $('create-message');
  m.textContent = text;
  m.className = ok ? 'form-message ok' : 'form-message';
  m.hidden = !text;
}

async function createGroup(event) {
  event.preventDefault();
  sayAtForm('');
  // sent as typed: the server validates and its message is shown as it is
  const number = (v) => (/^-?\d+$/.test(v.trim()) ? Number(v) : v);
  try {
    const body = { replicas: number($('new-replicas').value) };
    const policy = $('new-policy').value;
    // with a policy, its partition count (and its name, when none is typed); without, the typed count
    if (policy.trim()) body.policy = policy;
    if ($('new-name').value.trim() || !policy.trim()) body.name = $('new-name').value;
    if ($('new-partitions').value.trim() || !policy.trim()) body.partitions = number($('new-partitions').value);
    const g = await api('POST', '/groups', body);
    sayAtForm(`group ${g.name} created with ${g.partitions} partitions`, true);
    $('new-name').value = '';
    $('new-partitions').value = '';
    $('new-policy').value = '';
    await renderGroups();
  } catch (e) {
    sayAtForm(e.message);
    if (e.field) {
      const input = { name: 'new-name', partitions: 'new-partitions', replicas: 'new-replicas', policy: 'new-policy' }[e.field];
      if (input) $(input).focus();
    }
  }
}

async function renderAudit() {
  const entries = await api('GET', '/audit?limit=200');
  const show = (v) => (v == null ? '—' : JSON.stringify(v));
  fillTable($('audit'), entries.map((e) => [e.time, e.user, e.action, e.target, show(e.before), show(e.after)]));
}

// ---- policy validate / explain: the policy engine's own commands, run by the admin service ----

async function runPolicy(what) {
  const body = { policy: $('policy-text').value };
  if (what === 'explain') Object.assign(body, { table: $('policy-table').value.trim(), row: $('policy-row').value.trim(), op: $('policy-op').value });
  const out = $('policy-output');
  try {
    const result = await api('POST', `/policy/${what}`, body);
    out.textContent = result.output;
    out.className = result.ok ? '' : 'bad';
  } catch (e) {
    out.textContent = e.message;
    out.className = 'bad';
  }
  out.hidden = false;
}

// ---- a group's parked changes, read from its target ----

const parked = { group: null, discard: null };
let snapshotGroup = null;

/** A group's snapshot progress per partition, from the cursor on each checkpoint in its target. */
async function showSnapshot(group, scroll = true) {
  snapshotGroup = group;
  $('snapshot-title').textContent = `Snapshot progress of ${group}`;
  $('snapshot-panel').hidden = false;
  const message = $('snapshot-message');
  try {
    const s = await api('GET', `/groups/${encodeURIComponent(group)}/snapshot`);
    message.hidden = true;
    fillTable($('snapshot'), s.partitions.map((p) => [String(p.partition), p.state,
      p.table == null ? '—' : (p.tableNumber == null ? `${p.table} (no longer listed: starts over)` : `${p.table} (${p.tableNumber} of ${s.tables.length})`),
      p.afterKey ?? (p.state === 'loading' ? 'its start' : '—'), p.checkpointScn ?? '—']));
    $('snapshot-summary').textContent = (s.loading === 0 ? 'No partition is loading a snapshot.'
      : `Loading in ${s.loading} of ${s.partitions.length} partitions.`)
      + (s.tables.length ? ` Tables: ${s.tables.join(', ')}.` : ' The consumer file lists no snapshot.tables.');
  } catch (e) {
    fillTable($('snapshot'), []);
    $('snapshot-summary').textContent = '';
    message.textContent = e.message;
    message.hidden = false;
  }
  await showSnapshotLoads(group);
  if (scroll) $('snapshot-panel').scrollIntoView();
}

/** The on-demand loads of a group (docs/bootstrap.md §5.4): each partition's request, its flags and its progress. */
async function showSnapshotLoads(group) {
  try {
    const loads = await api('GET', `/groups/${encodeURIComponent(group)}/snapshot/loads`);
    const asked = loads.filter((l) => l.request != null);
    fillTable($('snapshot-loads'), asked.map((l) => [String(l.partition), l.request.tables.length ? l.request.tables.join(', ') : "the group's own list",
      `${l.request.user} at ${l.request.requestedAt}`,
      l.request.cancelled ? 'cancelled' : l.request.paused ? 'paused' : l.request.taken ? 'loading' : 'waiting for its leader',
      snapshotText(l.progress)]));
    $('snapshot-loads-summary').textContent = asked.length === 0 ? 'No load asked by an operator is waiting or loading.'
      : `${asked.length} partition${asked.length === 1 ? '' : 's'} with a load asked by an operator.`;
  } catch (e) {
    fillTable($('snapshot-loads'), []);
    $('snapshot-loads-summary').textContent = e.message;
  }
}

/** Starts, pauses, resumes or cancels on-demand loads of the shown group, for the partitions typed (all when none). */
async function snapshotAct(action) {
  const group = snapshotGroup;
  const message = $('snapshot-action-message');
  const list = (id) => $(id).value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const partitions = list('snapshot-partitions').map(Number);
  const body = action === 'start' ? { tables: list('snapshot-tables'), partitions } : { partitions };
  message.className = 'form-message';
  try {
    const done = await api('POST', `/groups/${encodeURIComponent(group)}/snapshot/${action}`, body);
    const partitionsText = (list) => `partition${list.length === 1 ? '' : 's'} ${list.join(', ')}`;
    message.textContent = action === 'start'
      ? `Asked ${partitionsText(done.recorded)} to load again${done.waitingForResume.length ? `; ${partitionsText(done.waitingForResume)} load when resumed` : ''}.`
      : `${{ pause: 'Paused', resume: 'Resumed', cancel: 'Cancelled' }[action]} the load of ${partitionsText(done.changed)}.`;
    message.className = 'form-message ok';
  } catch (e) {
    message.textContent = e.message;
  }
  message.hidden = false;
  await showSnapshotLoads(group);
}

function sayAtParked(text, ok = false) {
  const m = $('parked-message');
  m.textContent = text;
  m.className = ok ? 'form-message ok' : 'form-message';
  m.hidden = !text;
}

async function showParked(group, keepMessage = false) {
  parked.group = group;
  parked.discard = null;
  $('parked-discard-confirm').hidden = true;
  $('parked-title').textContent = `Parked changes of ${group}`;
  $('parked-panel').hidden = false;
  if (!keepMessage) sayAtParked('');
  try {
    const page = await api('GET', `/groups/${encodeURIComponent(group)}/parked?limit=200`);
    fillTable($('parked'), page.rows.map((r) => {
      const key = { table: r.sourceTable, key: r.key };
      const actions = canWrite() ? el('span', {},
        button('Replay', `parked-replay-${r.id}`, () => parkedAct('replay', key), async () => {}), ' ',
        button('Discard…', `parked-discard-${r.id}`, async () => askDiscard(key, `the parked changes of ${r.sourceTable} ${r.key}`), async () => {}))
        : '';
      return [r.parkedAt, String(r.partition), r.scn, r.sourceTable === r.targetTable ? r.sourceTable : `${r.sourceTable} → ${r.targetTable}`,
        r.op, r.key, r.reason, actions];
    }));
    $('parked-summary').textContent = page.rows.length === 0 ? 'Nothing parked.'
      : `${page.rows.length}${page.truncated ? ' (the first; more are parked)' : ''} parked.`
        + (canWrite() ? ' Replay applies them again with the consumer\'s configuration as it is now; discard drops them.' : '');
    $('parked-replay-all').disabled = page.rows.length === 0;
    $('parked-discard-all').disabled = page.rows.length === 0;
  } catch (e) {
    fillTable($('parked'), []);
    $('parked-summary').textContent = '';
    sayAtParked(e.message);
  }
  $('parked-panel').scrollIntoView();
}

// discarding drops changes for good: a second, explicit click
function askDiscard(selection, what) {
  parked.discard = selection;
  const b = $('parked-discard-confirm');
  b.textContent = `Discard ${what} for good`;
  b.hidden = false;
  b.focus();
}

async function parkedAct(what, selection) {
  sayAtParked('');
  try {
    const done = await api('POST', `/groups/${encodeURIComponent(parked.group)}/parked/${what}`, selection);
    const text = what === 'discard' ? `discarded ${done.discarded} parked change${done.discarded === 1 ? '' : 's'}`
      : `replayed ${done.applied} of ${done.selected} parked change${done.selected === 1 ? '' : 's'}`
        + (done.stillParked.length ? `; still parked: ${done.stillParked.join('; ')}` : '');
    sayAtParked(text, what === 'discard' || done.stillParked.length === 0);
  } catch (e) {
    sayAtParked(e.message);
  }
  await showParked(parked.group, true);
}

// ---- change a group: the form keeps the version it was opened with ----

const edit = { group: null, version: null };

function sayAtEdit(text, ok = false) {
  const m = $('edit-message');
  m.textContent = text;
  m.className = ok ? 'form-message ok' : 'form-message';
  m.hidden = !text;
}

function openEdit(g) {
  Object.assign(edit, { group: g.name, version: g.version });
  $('edit-group-title').textContent = `Change group ${g.name}`;
  $('edit-replicas').value = String(g.replicas);
  sayAtEdit('');
  $('edit-group-form').hidden = false;
  $('edit-group-form').scrollIntoView();
  $('edit-replicas').focus();
}

async function saveEdit(event) {
  event.preventDefault();
  sayAtEdit('');
  const v = $('edit-replicas').value.trim();
  try {
    const g = await api('PUT', `/groups/${encodeURIComponent(edit.group)}`, { replicas: /^\d+$/.test(v) ? Number(v) : v }, edit.version);
    edit.version = g.version;
    sayAtEdit(`group ${g.name} now has ${g.replicas} replicas`, true);
    await renderGroups();
  } catch (e) {
    sayAtEdit(e.message);
  }
}

// ---- checkpoint reset: dry run first, then confirm with the dry run's version ----

const reset = { target: null, plan: null };

function resetPath() {
  return `/groups/${encodeURIComponent(reset.target.group)}/partitions/${reset.target.partition}/reset`;
}

function sayAtReset(text, ok = false) {
  const m = $('reset-message');
  m.textContent = text;
  m.className = ok ? 'form-message ok' : 'form-message';
  m.hidden = !text;
}

function showResetInputs() {
  const to = $('reset-to').value;
  $('reset-scn-label').hidden = to !== 'scn';
  $('reset-shift-label').hidden = to !== 'shift';
  $('reset-time-label').hidden = to !== 'time';
  $('reset-confirm').disabled = true;
}

async function openReset(group, partition) {
  reset.target = { group, partition };
  reset.plan = null;
  sayAtReset('');
  $('reset-plan').hidden = true;
  $('reset-title').textContent = `Reset the checkpoint of ${group} partition ${partition}`;
  const now = await api('GET', resetPath());
  $('reset-scn').value = now.currentScn ?? '';
  $('reset-shift').value = '0';
  $('reset-time').value = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  $('reset-to').value = 'scn';
  showResetInputs();
  describeCurrent(now);
  $('reset-form').hidden = false;
  $('reset-form').scrollIntoView();
  $('reset-scn').focus();
}

function describeCurrent(state) {
  let text = `Checkpoint now: ${state.currentScn ?? 'none'}; ${state.paused ? 'paused' : 'running (pause it to reset)'}.`;
  if (state.pending) text += ` Waiting to be carried out on resume: reset to ${state.pending.scn}${state.pending.snapshot ? ' with a fresh snapshot' : ''} (asked by ${state.pending.user}).`;
  $('reset-current').textContent = text;
  $('reset-cancel-pending').hidden = !state.pending;
}

function resetBody(dryRun) {
  const to = $('reset-to').value;
  const body = { to, dryRun };
  if (to === 'scn') body.scn = $('reset-scn').value.trim();
  if (to === 'time') body.time = $('reset-time').value.trim();
  if (to === 'shift') {
    const v = $('reset-shift').value.trim();
    body.shift = /^[-+]?\d+$/.test(v) ? Number(v) : v;
  }
  return body;
}

function showPlan(plan) {
  reset.plan = plan;
  const rows = plan.time ? [['Time asked', plan.time.asked], ['First commit at or after it', `SCN ${plan.time.firstScn}, committed ${plan.time.firstCommitTime}`]] : [];
  if (plan.snapshot) rows.push(['Snapshot', 'every table loaded again from its first chunk']);
  rows.push(['From SCN', plan.currentScn ?? 'none'], ['To SCN', plan.targetScn], ['Change', plan.change],
    ['SCN distance', plan.scnDistance ?? '—'], ['Relays hold', plan.relayOldestScn == null ? 'unknown' : `${plan.relayOldestScn} … ${plan.relayNewestScn}`]);
  $('reset-plan-table').tBodies[0].replaceChildren(...rows.map(([k, v]) => el('tr', {}, el('th', { text: k }), el('td', { text: v }))));
  $('reset-warnings').replaceChildren(...plan.warnings.map((w) => el('li', { text: w })));
  $('reset-plan').hidden = false;
  $('reset-confirm').disabled = !plan.paused;
  describeCurrent(plan);
}

async function resetDryRun() {
  sayAtReset('');
  try {
    showPlan(await api('POST', resetPath(), resetBody(true)));
  } catch (e) {
    $('reset-confirm').disabled = true;
    sayAtReset(e.message);
  }
}

async function resetConfirm() {
  sayAtReset('');
  try {
    const plan = await api('POST', resetPath(), resetBody(false), reset.plan.version);
    showPlan(plan);
    $('reset-confirm').disabled = true;
    sayAtReset(`reset to ${plan.targetScn}${plan.snapshot ? ' with a fresh snapshot' : ''} recorded: the partition restarts after it when it is resumed`, true);
  } catch (e) {
    sayAtReset(e.message);
  }
}

async function resetCancelPending() {
  sayAtReset('');
  try {
    describeCurrent(await api('DELETE', resetPath()));
    sayAtReset('the waiting reset was cancelled', true);
  } catch (e) {
    sayAtReset(e.message);
  }
}

start().catch((e) => say(e.message));
