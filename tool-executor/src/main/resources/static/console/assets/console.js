// ToolOnce operator console: a page over the operator API v1 (docs/operations.md §4). Every figure and row comes
// from /api/v1 with the operator's own token (kept in this tab's sessionStorage, sent as a bearer, never a cookie);
// every change of state asks for an explicit confirmation first. Text from the server is set with textContent only.
'use strict';

const TOKEN_KEY = 'toolonce.token';
const main = () => document.getElementById('main');
const token = () => sessionStorage.getItem(TOKEN_KEY);

// ---- DOM helpers: elements from data, never from HTML strings

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// what a screen shows: its nodes, leaving out the ones it decided not to show (null, false)
function show(...nodes) {
  main().replaceChildren(...nodes.flat().filter(n => n !== null && n !== undefined && n !== false));
}

const state = s => el('span', { class: 'state ' + s, 'data-state': s }, s);
const when = s => s ? new Date(s).toLocaleString() : '';
const link = (href, text, attrs) => el('a', Object.assign({ href }, attrs || {}), text);
const pct = x => x === null || x === undefined ? '–' : (100 * x).toFixed(1) + ' %';
const ms = x => x === null || x === undefined ? '–' : Math.round(x) + ' ms';

function table(headers, rows, attrs) {
  return el('table', attrs || {}, el('thead', {}, el('tr', {}, headers.map(h => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows));
}

function flash(text, kind) {
  const f = document.getElementById('flash');
  f.replaceChildren(el('p', { class: kind || 'ok', 'data-flash': kind || 'ok' }, text));
}

// ---- the API

class Refused extends Error {
  constructor(status, detail) { super(detail); this.status = status; }
}

// A page left before its data came: its reads are dropped, so that it cannot paint over the page shown now.
class Stale extends Error {}
let routeSeq = 0;

async function api(method, path, body) {
  const headers = { Authorization: 'Bearer ' + token(), Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const asked = routeSeq;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (method === 'GET' && asked !== routeSeq) throw new Stale();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  if (r.status === 401) { signOut('Your token was not accepted (401): sign in again.'); throw new Refused(401, 'not signed in'); }
  if (!r.ok) throw new Refused(r.status, (json && (json.detail || json.title)) || ('HTTP ' + r.status));
  return json;
}

const q = params => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') u.set(k, v);
  const s = u.toString();
  return s ? '?' + s : '';
};

// ---- confirmation: every state change goes through here

function confirmDialog(title, okLabel, body) {
  const d = document.getElementById('confirm');
  document.getElementById('confirm-title').textContent = title;
  document.getElementById('confirm-body').replaceChildren(...body);
  document.getElementById('confirm-ok').textContent = okLabel;
  return new Promise(resolve => {
    const form = document.getElementById('confirm-form');
    const cancel = document.getElementById('confirm-cancel');
    const done = ok => { form.onsubmit = null; cancel.onclick = null; d.onclose = null; if (d.open) d.close(); resolve(ok); };
    form.onsubmit = ev => {
      ev.preventDefault();
      const missing = [...form.querySelectorAll('[required]')].find(i => !i.value.trim());
      if (missing) { missing.focus(); missing.setAttribute('aria-invalid', 'true'); return; }
      done(true);
    };
    cancel.onclick = () => done(false);
    d.onclose = () => done(false);
    d.showModal();
    const first = d.querySelector('input, select, textarea');
    (first || cancel).focus();
  });
}

async function act(run, success) {
  try {
    const r = await run();
    flash(success(r), 'ok');
    return r;
  } catch (e) {
    if (e.status !== 401) flash('Refused: ' + e.message + (e.status ? ' (' + e.status + ')' : ''), 'error');
    return null;
  }
}

// ---- sign in and out

function signIn(message) {
  document.getElementById('nav').hidden = true;
  const input = el('textarea', { id: 'token', rows: 3, autocomplete: 'off', spellcheck: 'false', required: true,
    'aria-describedby': 'token-help' });
  const form = el('form', { class: 'login', onsubmit: async ev => {
    ev.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    try {
      await api('GET', '/api/v1/overview');
      document.getElementById('nav').hidden = false;
      location.hash = location.hash && location.hash !== '#/' ? location.hash : '#/overview';
      route();
    } catch (e) {
      if (e.status !== 401) document.getElementById('login-error').textContent = e.message;
    }
  } },
  el('h2', {}, 'Sign in'),
  el('label', { for: 'token' }, 'API token or JWT', input),
  el('p', { id: 'token-help', class: 'muted' }, 'A token of role viewer, operator or admin: ',
    el('code', {}, './toolonce tokens create --role operator --tenant <tenant>'),
    '. It stays in this tab only and is sent as a bearer token to this executor.'),
  el('p', { id: 'login-error', class: 'error', role: 'alert' }, message || ''),
  el('button', { type: 'submit', id: 'login', class: 'primary' }, 'Sign in'));
  show(form);
  input.focus();
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  signIn(message);
}

// ---- screens

const screens = {
  async overview() {
    const o = await api('GET', '/api/v1/overview');
    const fig = (key, label, value, alarm) => el('div', { class: 'figure' + (alarm ? ' alarm' : ''), 'data-figure': key },
      el('div', { class: 'value' }, value), el('div', { class: 'label' }, label));
    const r = o.recovery, c = o.compensations, x = o.executor;
    const figures = [
      fig('duplicate-alarms', 'duplicate-effect alarms (this executor since start)',
        x ? x.duplicateEffectAlarms : 'all-tenant tokens only', x && x.duplicateEffectAlarms > 0),
      fig('reconciliation-rate', 'reconciliation success rate (' + r.reconciled + ' of ' + r.unknown + ' unknown)',
        pct(r.reconciliationSuccessRate)),
      fig('conflict-rate', 'conflict rate (parameter mismatches among intents)', x ? pct(x.conflictRate) : 'all-tenant tokens only'),
      fig('manual-recovery-rate', 'manual recovery rate (' + r.toReview + ' reached review)', pct(r.manualRecoveryRate)),
      fig('recovery-time', 'recovery time p50 / p95 / p99',
        ms(r.recoveryMillisP50) + ' / ' + ms(r.recoveryMillisP95) + ' / ' + ms(r.recoveryMillisP99)),
      fig('compensation-rate', 'compensation success rate (' + c.committed + ' committed of ' + c.settled +
        ' settled, ' + c.started + ' started)', pct(c.compensationSuccessRate)),
      fig('review-backlog', 'calls in review now (whenever created)', o.reviewBacklog, o.reviewBacklog > 0),
    ];
    const states = Object.entries(o.callsByState);
    show(
      el('h2', {}, 'Overview'),
      el('p', { class: 'muted' }, 'Calls of your tenants created from ' + when(o.since) + ' to ' + when(o.until) + '.'),
      el('div', { class: 'figures' }, figures),
      el('h3', {}, 'Calls by state'),
      table(['state', 'calls'], states.map(([s, n]) => el('tr', {},
        el('td', {}, link('#/calls?state=' + encodeURIComponent(s), state(s))), el('td', { class: 'num' }, n))),
        { id: 'calls-by-state' }),
      el('h3', {}, 'Transitions over time (per ' + o.bucketSeconds + ' s)'),
      chart(o.transitionsOverTime, o.since, o.until, o.bucketSeconds));
  },

  async reviews() {
    const page = await api('GET', '/api/v1/reviews?limit=100');
    show(el('h2', {}, 'Review queue'),
      el('p', { class: 'muted' }, 'Calls whose outcome nothing could settle safely. Open one to see its evidence; ' +
        'a resolution needs a reason and is audited under your name.'),
      page.items.length === 0 ? el('p', { id: 'reviews-empty' }, 'Nothing waits for review.') :
        table(['call', 'scope', 'error', 'since', ''], page.items.map(c => el('tr', { 'data-call-id': c.id },
          el('td', {}, link('#/calls/' + c.id, String(c.id))),
          el('td', { class: 'mono' }, c.scope),
          el('td', {}, c.errorCode || '', el('div', { class: 'muted' }, c.errorMessage || '')),
          el('td', {}, when(c.updatedAt)),
          el('td', {}, el('button', { type: 'button', 'data-resolve': c.id, onclick: () => resolve(c) }, 'Resolve…')))),
        { id: 'reviews' }));
  },

  async calls(params) {
    const fields = ['tenant', 'tool', 'operation', 'state', 'task', 'since', 'until', 'keyPrefix'];
    const inputs = {};
    const form = el('form', { class: 'search', id: 'call-search', onsubmit: ev => {
      ev.preventDefault();
      const p = {};
      for (const f of fields) if (inputs[f].value.trim()) p[f] = inputs[f].value.trim();
      location.hash = '#/calls' + q(p);
    } }, fields.map(f => {
      inputs[f] = f === 'state' ? el('select', { name: f, id: 'search-' + f }, ['', 'PLANNED', 'STARTED', 'UNKNOWN',
        'COMMITTED', 'FAILED_RETRYABLE', 'FAILED_FINAL', 'NEEDS_REVIEW', 'COMPENSATING', 'COMPENSATED']
        .map(s => el('option', { value: s, selected: params.get(f) === s }, s || 'any')))
        : el('input', { name: f, id: 'search-' + f, value: params.get(f) || '',
          placeholder: f === 'since' || f === 'until' ? '2026-12-06T10:00:00Z' : '' });
      return el('label', {}, f, inputs[f]);
    }), el('button', { type: 'submit', class: 'primary', id: 'search' }, 'Search'));
    const rows = el('tbody', {});
    const more = el('button', { type: 'button', id: 'more', hidden: true }, 'More');
    show(el('h2', {}, 'Calls'), form,
      el('table', { id: 'calls' }, el('thead', {}, el('tr', {}, ['call', 'scope', 'state', 'attempts', 'task', 'created']
        .map(h => el('th', { scope: 'col' }, h)))), rows), more);
    const load = async cursor => {
      const p = {};
      for (const f of fields) if (params.get(f)) p[f] = params.get(f);
      if (cursor) p.cursor = cursor;
      const page = await api('GET', '/api/v1/calls' + q(p));
      rows.append(...page.items.map(c => el('tr', { 'data-call-id': c.id },
        el('td', {}, link('#/calls/' + c.id, String(c.id))), el('td', { class: 'mono' }, c.scope),
        el('td', {}, state(c.state)), el('td', { class: 'num' }, c.attempts),
        el('td', {}, c.taskId ? c.taskId + ' / ' + c.stepId : ''), el('td', {}, when(c.createdAt)))));
      more.hidden = !page.nextCursor;
      more.onclick = () => load(page.nextCursor);
    };
    await load(null);
  },

  async call(id) {
    const c = await api('GET', '/api/v1/calls/' + encodeURIComponent(id));
    const facts = [['scope', c.scope], ['kind', c.kind], ['attempts', c.attempts], ['fence', c.fence],
      ['external object', c.externalObjectId], ['error', c.errorCode ? c.errorCode + ': ' + (c.errorMessage || '') : ''],
      ['effect possible', String(c.effectPossible)], ['evidence of an effect', String(c.evidenceOfEffect)],
      ['lookup failures', c.lookupFailures], ['task / step', c.taskId ? c.taskId + ' / ' + c.stepId : ''],
      ['created', when(c.createdAt)], ['started', when(c.startedAt)], ['final', when(c.terminalAt)]];
    show(
      el('h2', {}, 'Call ' + c.id + ' ', el('span', { id: 'call-state' }, state(c.state))),
      c.state === 'NEEDS_REVIEW' ? el('p', {}, el('button', { type: 'button', id: 'resolve', class: 'primary',
        onclick: () => resolve(c) }, 'Resolve…')) : null,
      c.taskId ? el('p', {}, link('#/tasks/' + encodeURIComponent(c.taskId) + '?tenant=' + encodeURIComponent(c.tenantId),
        'Open task ' + c.taskId, { id: 'open-task' })) : null,
      table(['', ''], facts.map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v ?? ''))), { id: 'call' }),
      el('h3', {}, 'Timeline'),
      table(['at', 'fence', 'from', 'to', 'note'], c.timeline.map(t => el('tr', {},
        el('td', {}, when(t.at)), el('td', { class: 'num' }, t.fence), el('td', {}, t.fromState ? state(t.fromState) : ''),
        el('td', {}, state(t.toState)), el('td', { class: 'mono' }, t.detail || ''))), { id: 'timeline' }),
      el('h3', {}, 'Resolutions'),
      c.resolutions.length === 0 ? el('p', { class: 'muted' }, 'None.') :
        table(['at', 'action', 'external id', 'operator', 'reason'], c.resolutions.map(r => el('tr', {},
          el('td', {}, when(r.at)), el('td', {}, r.action), el('td', {}, r.externalId || ''), el('td', {}, r.operator),
          el('td', {}, r.note || ''))), { id: 'resolutions' }),
      el('h3', {}, 'Duplicates waiting for its answer'),
      c.waitingDuplicates.length === 0 ? el('p', { class: 'muted' }, 'None.') :
        table(['intent', 'task / step', 'since'], c.waitingDuplicates.map(w => el('tr', {},
          el('td', { class: 'mono' }, w.intentMessageId), el('td', {}, (w.taskId || '') + ' / ' + (w.stepId || '')),
          el('td', {}, when(w.createdAt))))),
      el('h3', {}, 'Arguments'), el('pre', { id: 'arguments' }, c.arguments || ''),
      el('h3', {}, 'Result'), el('pre', { id: 'result' }, c.result || ''));
  },

  async tasks() {
    const list = await api('GET', '/console/tasks-api/tasks?limit=100');
    show(el('h2', {}, 'Tasks'),
      list.length === 0 ? el('p', {}, 'No tasks.') :
        table(['task', 'tenant', 'state', 'steps'], list.map(t => el('tr', { 'data-task-id': t.taskId },
          el('td', {}, link('#/tasks/' + encodeURIComponent(t.taskId) + '?tenant=' + encodeURIComponent(t.tenantId), t.taskId)),
          el('td', {}, t.tenantId), el('td', {}, state(t.state)),
          el('td', {}, t.steps.map(s => [s.stepId + ' ', state(s.state), ' '])))), { id: 'tasks' }));
  },

  async task(id, params) {
    const path = '/console/tasks-api/tasks/' + encodeURIComponent(id) + q({ tenant: params.get('tenant') });
    const t = await api('GET', path);
    const graph = [];
    t.steps.forEach((s, i) => {
      if (i > 0) graph.push(el('span', { class: 'arrow', 'aria-hidden': 'true' }, '→'));
      graph.push(el('div', { class: 'step ' + s.state, 'data-step': s.stepId },
        el('strong', {}, s.stepId), ' ', state(s.state),
        el('div', { class: 'mono' }, s.tool + '.' + s.operation),
        el('div', { class: 'muted' }, [s.compensable ? 'compensable' : '', s.irreversible ? 'irreversible' : '',
          s.needsApproval ? 'needs approval' : '', s.approvedBy ? 'approved by ' + s.approvedBy : '']
          .filter(Boolean).join(', ')),
        s.externalObjectId ? el('div', {}, 'external: ', el('code', {}, s.externalObjectId)) : null,
        el('div', {}, link('#/calls?task=' + encodeURIComponent(t.taskId) + '&tenant=' + encodeURIComponent(t.tenantId),
          'calls of this task')),
        s.state === 'AWAITING_APPROVAL' ? el('button', { type: 'button', class: 'primary', 'data-approve': s.stepId,
          onclick: () => approve(t, s) }, 'Approve…') : null,
        t.open && (s.state === 'PENDING' || s.state === 'AWAITING_APPROVAL') ? el('button', { type: 'button',
          'data-edit': s.stepId, onclick: () => editArguments(t, s) }, 'Edit arguments…') : null));
    });
    show(
      el('h2', {}, 'Task ' + t.taskId + ' ', el('span', { id: 'task-state' }, state(t.state))),
      el('p', { class: 'muted' }, 'tenant ' + t.tenantId + ', version ' + t.version),
      el('div', { class: 'steps', id: 'steps', role: 'list' }, graph),
      el('h3', {}, 'Steps'),
      table(['step', 'state', 'key', 'arguments', 'error'], t.steps.map(s => el('tr', {},
        el('td', {}, s.stepId), el('td', {}, state(s.state)), el('td', { class: 'mono' }, s.idempotencyKey),
        el('td', {}, el('pre', {}, JSON.stringify(s.arguments, null, 2))), el('td', {}, s.errorCode || '')))),
      t.open ? el('p', {}, el('button', { type: 'button', id: 'resume-task', onclick: async () => {
        if (await confirmDialog('Resume task ' + t.taskId + '?', 'Resume', [el('p', {},
          'Publishes again the intents of its running steps (the executor answers each from its ledger: nothing runs twice).')])) {
          await act(() => api('POST', '/console/tasks-api/tasks/' + encodeURIComponent(t.taskId) + '/resume' +
            q({ tenant: t.tenantId })), r => 'Task ' + t.taskId + ': ' + r.republished + ' intents published again.');
        }
      } }, 'Resume…')) : null);
  },

  async tools() {
    const paused = await api('GET', '/api/v1/tools/paused');
    show(el('h2', {}, 'Paused tools'),
      el('p', { class: 'muted' }, 'A tool is paused for a tenant (or every tenant, *) when it refused its credentials ' +
        '(401/403): its calls wait, nothing is lost. Resume once the credential is fixed (role admin).'),
      paused.length === 0 ? el('p', { id: 'paused-empty' }, 'No tool is paused.') :
        table(['tool', 'tenant', 'since', 'why', ''], paused.map(p => el('tr', { 'data-tool': p.tool },
          el('td', {}, p.tool), el('td', {}, p.tenant_id), el('td', {}, when(p.paused_at)),
          el('td', {}, p.reason || ''), el('td', {}, el('button', { type: 'button', 'data-resume': p.tool, onclick: async () => {
            const tenant = p.tenant_id;
            if (await confirmDialog('Resume ' + p.tool + ' for ' + tenant + '?', 'Resume', [el('p', {},
              'Its waiting calls are claimed again at once.')])) {
              await act(() => api('POST', '/api/v1/tools/' + encodeURIComponent(p.tool) + '/resume' + q({ tenant })),
                r => p.tool + (r.resumed ? ' resumed.' : ' was not paused.'));
              route();
            }
          } }, 'Resume…')))), { id: 'paused' }));
  },

  async deadLetters() {
    const topics = await api('GET', '/api/v1/dead-letters');
    show(el('h2', {}, 'Dead letters'),
      el('p', { class: 'muted' }, 'Records a consumer could not read or apply, kept with why. A replay sends a copy back ' +
        'to its topic, where it is checked again from scratch; one already applied is absorbed by the inbox.'),
      table(['topic', 'partitions', 'records'], topics.map(t => el('tr', { 'data-topic': t.topic },
        el('td', {}, link('#/dead-letters/' + encodeURIComponent(t.topic), t.topic)), el('td', { class: 'num' }, t.partitions),
        el('td', { class: 'num' }, t.records ?? '–'))), { id: 'dlq-topics' }),
      el('p', { class: 'muted' }, 'Record counts are of every tenant: shown to principals of every tenant only.'));
  },

  async deadLetterTopic(topic, params) {
    const rows = el('tbody', {});
    const more = el('button', { type: 'button', id: 'more', hidden: true }, 'More');
    const replay = el('button', { type: 'button', id: 'replay', class: 'primary', onclick: async () => {
      const ids = [...rows.querySelectorAll('input[type=checkbox]:checked')].map(c => c.value);
      if (ids.length === 0) { flash('Select the dead letters to replay first.', 'error'); return; }
      await replayDialog(ids);
    } }, 'Replay selected…');
    show(el('h2', {}, 'Dead letters of ', el('code', {}, topic)),
      el('table', { id: 'dead-letters' }, el('thead', {}, el('tr', {}, ['', 'dead letter', 'code', 'tenant', 'message id',
        'from', 'at'].map(h => el('th', { scope: 'col' }, h)))), rows), more, ' ', replay);
    const load = async cursor => {
      const page = await api('GET', '/api/v1/dead-letters/' + encodeURIComponent(topic) + q({ cursor, code: params.get('code') }));
      rows.append(...page.items.map(d => el('tr', { 'data-dead-letter': d.id },
        el('td', {}, el('input', { type: 'checkbox', value: d.id, 'aria-label': 'select ' + d.id })),
        el('td', {}, link('#/dead-letter/' + d.id.split('/').map(encodeURIComponent).join('/'), d.id)),
        el('td', {}, d.errorCode || '', el('div', { class: 'muted' }, d.errorMessage || '')),
        el('td', {}, d.tenantId || el('span', { class: 'muted' }, 'none')), el('td', { class: 'mono' }, d.messageId || ''),
        el('td', { class: 'mono' }, (d.originalTopic || '') + (d.originalOffset ? ' @' + d.originalPartition + '/' + d.originalOffset : '')),
        el('td', {}, when(d.deadLetteredAt)))));
      more.hidden = !page.nextCursor;
      more.onclick = () => load(page.nextCursor);
    };
    await load(null);
  },

  async deadLetter(id) {
    const d = await api('GET', '/api/v1/dead-letters/' + id.split('/').map(encodeURIComponent).join('/'));
    show(el('h2', {}, 'Dead letter ', el('code', {}, d.id)),
      el('p', {}, el('button', { type: 'button', id: 'replay', class: 'primary', onclick: () => replayDialog([d.id]) },
        'Replay…')),
      table(['', ''], [['error', (d.errorCode || '') + ': ' + (d.errorMessage || '')], ['tenant', d.tenantId || 'none'],
        ['message id', d.messageId || ''], ['type', d.type || ''], ['from', (d.originalTopic || '') + ' ' +
          (d.originalPartition || '') + '/' + (d.originalOffset || '')], ['key', d.key || ''], ['dead-lettered', when(d.deadLetteredAt)]]
        .map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, v))), { id: 'dead-letter' }),
      el('h3', {}, 'Headers'),
      table(['header', 'value'], Object.entries(d.headers).map(([k, v]) => el('tr', {}, el('td', { class: 'mono' }, k),
        el('td', { class: 'mono' }, v ?? '')))),
      el('h3', {}, 'Value (' + d.value.encoding + ', ' + d.valueBytes + ' bytes)'), el('pre', { id: 'value' }, d.value.text ?? ''),
      el('h3', {}, 'Replays'),
      d.replays.length === 0 ? el('p', { class: 'muted', id: 'replays-empty' }, 'Never replayed.') :
        table(['at', 'to', 'by', 'reason'], d.replays.map(r => el('tr', {}, el('td', {}, r.at),
          el('td', { class: 'mono' }, r.to_topic + '/' + r.to_partition + '/' + r.to_offset), el('td', {}, r.principal),
          el('td', {}, r.reason))), { id: 'replays' }));
  },

  async audit() {
    const a = await api('GET', '/api/v1/audit?limit=100');
    show(el('h2', {}, 'Audit'),
      el('h3', {}, 'Resolutions'),
      table(['at', 'scope', 'action', 'external id', 'operator', 'reason'], a.resolutions.map(r => el('tr', {},
        el('td', {}, r.at), el('td', { class: 'mono' }, r.scope), el('td', {}, r.action), el('td', {}, r.external_id || ''),
        el('td', {}, r.operator), el('td', {}, r.note || ''))), { id: 'audit-resolutions' }),
      el('h3', {}, 'Tool resumes'),
      table(['at', 'tool', 'tenant', 'by'], a.toolResumes.map(r => el('tr', {}, el('td', {}, String(r.at)),
        el('td', {}, r.tool), el('td', {}, r.tenant_id ?? ''), el('td', {}, r.principal))), { id: 'audit-resumes' }),
      el('h3', {}, 'Dead-letter replays'),
      table(['at', 'dead letter', 'to', 'tenant', 'by', 'reason'], a.deadLetterReplays.map(r => el('tr', {},
        el('td', {}, r.at), el('td', { class: 'mono' }, r.dlq_topic + '/' + r.dlq_partition + '/' + r.dlq_offset),
        el('td', { class: 'mono' }, r.to_topic + '/' + r.to_partition + '/' + r.to_offset), el('td', {}, r.tenant_id || ''),
        el('td', {}, r.principal), el('td', {}, r.reason))), { id: 'audit-replays' }));
  },
};

// ---- actions behind a confirmation

async function resolve(c) {
  const action = el('select', { id: 'resolve-action', required: true }, ['', 'commit', 'retry', 'fail', 'compensate']
    .map(a => el('option', { value: a }, a || 'choose…')));
  const external = el('input', { id: 'resolve-external-id', autocomplete: 'off' });
  const reason = el('textarea', { id: 'resolve-reason', rows: 3, required: true });
  const ok = await confirmDialog('Resolve call ' + c.id, 'Resolve', [
    el('p', { class: 'mono' }, c.scope), el('p', {}, 'commit: the effect exists (give its external id); retry: it does ' +
      'not, call the tool again; fail: it does not and must not be tried again; compensate: undo what exists.'),
    el('label', {}, 'action', action), el('label', {}, 'external id (commit, compensate)', external),
    el('label', {}, 'reason (required, audited)', reason)]);
  if (!ok) return;
  const body = { action: action.value, externalId: external.value.trim() || null, reason: reason.value.trim() };
  const r = await act(() => api('POST', '/api/v1/calls/' + c.id + '/resolution', body),
    r => 'Call ' + c.id + ' is ' + r.state + '.');
  if (r) location.hash = '#/calls/' + c.id;
  route();
}

async function editArguments(t, s) {
  const args = el('textarea', { id: 'edit-arguments', rows: 10, required: true, spellcheck: 'false', class: 'mono' });
  args.value = JSON.stringify(s.arguments, null, 2);
  const error = el('p', { class: 'error', role: 'alert' });
  const ok = await confirmDialog('Change the arguments of step ' + s.stepId, 'Change', [
    el('p', {}, 'The step gets a new key: an approval given for the old arguments no longer counts.'),
    el('label', {}, 'arguments (a JSON object)', args), error]);
  if (!ok) return;
  let parsed;
  try { parsed = JSON.parse(args.value); } catch (e) { flash('Not JSON: ' + e.message, 'error'); return; }
  await act(() => api('POST', '/console/tasks-api/tasks/' + encodeURIComponent(t.taskId) + '/steps/' +
    encodeURIComponent(s.stepId) + '/arguments' + q({ tenant: t.tenantId }), parsed),
  () => 'Step ' + s.stepId + ' has new arguments.');
  route();
}

async function approve(t, s) {
  const ok = await confirmDialog('Approve step ' + s.stepId + ' of ' + t.taskId, 'Approve', [
    el('p', {}, 'You approve exactly these arguments (key ', el('code', {}, s.idempotencyKey), '):'),
    el('pre', {}, JSON.stringify(s.arguments, null, 2)),
    el('p', { class: 'muted' }, 'If they changed since this page was loaded, the approval is refused as stale.')]);
  if (!ok) return;
  await act(() => api('POST', '/console/tasks-api/tasks/' + encodeURIComponent(t.taskId) + '/steps/' +
    encodeURIComponent(s.stepId) + '/approve' + q({ tenant: t.tenantId }), { idempotencyKey: s.idempotencyKey }),
  () => 'Step ' + s.stepId + ' approved.');
  route();
}

async function replayDialog(ids) {
  const reason = el('textarea', { id: 'replay-reason', rows: 3, required: true });
  const ok = await confirmDialog('Replay ' + ids.length + ' dead letter' + (ids.length > 1 ? 's' : ''), 'Replay', [
    el('ul', {}, ids.map(i => el('li', { class: 'mono' }, i))),
    el('p', {}, 'Each goes back to its topic unchanged and is checked again; one already applied is absorbed by the inbox.'),
    el('label', {}, 'reason (required, audited)', reason)]);
  if (!ok) return;
  await act(() => api('POST', '/api/v1/dead-letters/replay', { ids, reason: reason.value.trim() }), r => {
    const refused = r.results.filter(x => x.refused).map(x => x.id + ': ' + x.refused);
    return r.replayed + ' replayed' + (refused.length ? '; refused ' + refused.join('; ') : '') + '.';
  });
  route();
}

// ---- the chart: transitions into each state per bucket, stacked bars drawn as SVG

const COLORS = { PLANNED: '#8c959f', STARTED: '#d4a72c', UNKNOWN: '#bf8700', COMMITTED: '#2da44e', FAILED_RETRYABLE: '#e16f24',
  FAILED_FINAL: '#cf222e', NEEDS_REVIEW: '#a40e26', COMPENSATING: '#8250df', COMPENSATED: '#6639ba' };

function chart(points, since, until, bucketSeconds) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  const slots = Math.max(1, Math.ceil((new Date(until) - new Date(since)) / 1000 / bucketSeconds));
  svg.setAttribute('class', 'chart');
  svg.setAttribute('viewBox', '0 0 960 180');
  svg.setAttribute('preserveAspectRatio', 'none'); // the time axis spans the whole width
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'transitions into each state over time');
  const buckets = new Map();
  for (const p of points) {
    const i = Math.round((new Date(p.at) - new Date(since)) / 1000 / bucketSeconds);
    if (!buckets.has(i)) buckets.set(i, []);
    buckets.get(i).push(p);
  }
  const max = Math.max(1, ...[...buckets.values()].map(b => b.reduce((n, p) => n + p.count, 0)));
  const w = 960 / slots;
  for (const [i, b] of buckets) {
    let y = 170;
    for (const p of b) {
      const h = 160 * p.count / max;
      const r = document.createElementNS(NS, 'rect');
      r.setAttribute('x', i * w + 2); r.setAttribute('width', w - 4); r.setAttribute('y', y - h); r.setAttribute('height', h);
      r.setAttribute('fill', COLORS[p.state] || '#57606a');
      const title = document.createElementNS(NS, 'title');
      title.textContent = p.state + ': ' + p.count + ' from ' + when(p.at);
      r.append(title);
      svg.append(r);
      y -= h;
    }
  }
  const legend = el('p', { class: 'legend' }, Object.entries(COLORS).map(([s, c]) => {
    const swatch = el('i', {});
    swatch.style.background = c; // CSSOM, which the content security policy allows (a style attribute it would not)
    return el('span', {}, swatch, s);
  }));
  return el('div', { id: 'chart' }, svg, legend);
}

// ---- routing: #/screen/arg?params

async function route() {
  if (!token()) { signIn(); return; }
  document.getElementById('nav').hidden = false;
  const [path, query] = (location.hash.slice(1) || '/overview').split('?');
  const params = new URLSearchParams(query || '');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const section = parts[0] === 'dead-letter' ? 'dead-letters' : parts[0];
  document.querySelectorAll('nav a').forEach(a => a.toggleAttribute('aria-current', a.dataset.nav === section));
  document.querySelectorAll('nav a[aria-current]').forEach(a => a.setAttribute('aria-current', 'page'));
  const mine = ++routeSeq;
  main().removeAttribute('data-screen');
  // the screen and its argument: #/calls → calls, #/calls/7 → call, #/dead-letters/t → deadLetterTopic, ...
  const routes = {
    reviews: () => ['reviews', []],
    calls: () => parts[1] ? ['call', [parts[1]]] : ['calls', [params]],
    tasks: () => parts[1] ? ['task', [parts[1], params]] : ['tasks', []],
    tools: () => ['tools', []],
    'dead-letters': () => parts[1] ? ['deadLetterTopic', [parts[1], params]] : ['deadLetters', []],
    'dead-letter': () => ['deadLetter', [parts.slice(1).join('/')]],
    audit: () => ['audit', []],
  };
  const [name, args] = Object.hasOwn(routes, parts[0] || '') ? routes[parts[0]]() : ['overview', []];
  try {
    await screens[name](...args);
    if (mine === routeSeq) main().setAttribute('data-screen', name);
  } catch (e) {
    if (e instanceof Stale || mine !== routeSeq) return; // another page is being shown
    if (e.status !== 401) show(el('p', { class: 'error', id: 'screen-error', role: 'alert' },
      'Could not load this page: ' + e.message + (e.status ? ' (' + e.status + ')' : '')));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('logout').addEventListener('click', () => signOut('Signed out.'));
  window.addEventListener('hashchange', () => { document.getElementById('flash').replaceChildren(); route(); });
  route();
});
