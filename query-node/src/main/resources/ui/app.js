// The Quire console: plain ES modules over the node's own API. Credentials live in this module's
// memory only (never in localStorage or cookies); every call sends them, and every write goes
// through the same endpoints (and the audit trail) as any other client's.
import { diffLines } from './lib/diff/5.1.0/lib/index.mjs';

const ROLES = ['READER', 'WRITER', 'ADMIN'];
const LEVELS = ['BACKWARD', 'BACKWARD_TRANSITIVE', 'FORWARD', 'FORWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE', 'NONE'];
const MODES = ['READWRITE', 'READONLY', 'READONLY_OVERRIDE', 'IMPORT'];
const PAGE = 20;

let authorization = null; // "Basic …" or "Bearer …", in memory only
let me = { authentication: false, authenticated: true, name: 'anonymous', role: 'ADMIN' };
let timer = null;

// ---------- the API

class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

/**
 * Bumped by every route(): an answer that comes back after it was asked for a page no longer
 * shown, and is dropped, so that the page left behind never replaces the one the address names.
 */
let generation = 0;
const never = () => new Promise(() => {});

async function api(path, { method = 'GET', body, json = true, always = false } = {}) {
  const asked = generation;
  const gone = () => !always && asked !== generation;
  const headers = { 'X-Quire-Console': '1', Accept: 'application/json' };
  if (authorization) headers.Authorization = authorization;
  if (body !== undefined) headers['Content-Type'] = 'application/vnd.schemaregistry.v1+json';
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' });
  } catch (e) {
    if (gone()) return never();
    throw new ApiError(0, 0, 'The node did not answer (' + e.message + '). Is it running?');
  }
  const text = await r.text();
  if (gone()) return never();
  let data = text;
  if (json && text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!r.ok) {
    const message = data && data.message ? data.message : 'HTTP ' + r.status;
    throw new ApiError(r.status, data && data.error_code, message);
  }
  return data;
}

const enc = encodeURIComponent;
const can = (role) => ROLES.indexOf(me.role) >= ROLES.indexOf(role);

// ---------- small DOM helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const main = () => document.getElementById('main');

function show(...nodes) {
  main().replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

function loading(what) {
  show(h('p', { class: 'state', role: 'status' }, 'Loading ' + what + '…'));
}

function failure(e) {
  if (e.status === 401) {
    askSignIn('This node needs you to sign in.');
    return h('p', { class: 'state error', role: 'alert' }, 'Sign in to see this page (401).');
  }
  if (e.status === 403) {
    return h('p', { class: 'state error', role: 'alert' }, 'Your role may not see this (403): ' + e.message);
  }
  return h('p', { class: 'state error', role: 'alert' }, e.message + (e.code ? ' (error ' + e.code + ')' : ''));
}

function when(ts) {
  return ts ? new Date(ts).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—';
}

function pretty(schema, type) {
  if (type === 'PROTOBUF') return schema;
  try { return JSON.stringify(JSON.parse(schema), null, 2); } catch { return schema; }
}

function code(text, type) {
  const c = h('code', { class: 'hljs' });
  const lang = type === 'PROTOBUF' ? 'protobuf' : 'json';
  if (window.hljs && window.hljs.getLanguage(lang)) {
    c.innerHTML = window.hljs.highlight(text, { language: lang }).value; // hljs escapes the text
  } else {
    c.textContent = text;
  }
  return h('pre', {}, c);
}

function params() {
  const [, query = ''] = location.hash.split('?');
  return new URLSearchParams(query);
}

function go(hash) {
  location.hash = hash;
}

// ---------- who is calling

function askSignIn(message) {
  const box = document.getElementById('signin');
  box.hidden = false;
  document.getElementById('signin-oidc').hidden = !me.oidc;
  document.getElementById('signin-error').textContent = message || '';
  document.getElementById(document.getElementById('signin-method').value === 'basic' ? 'signin-user' : 'signin-token').focus();
}

async function whoAmI() {
  me = await api('/v1/principal', { always: true });
  const who = document.getElementById('who');
  who.replaceChildren();
  if (me.authenticated) {
    who.append(h('span', {}, 'Signed in as ', h('strong', {}, me.name), ' (' + me.role.toLowerCase() + ')'));
    if (me.authentication) {
      who.append(h('button', { class: 'secondary', type: 'button', onclick: signOut }, 'Sign out'));
    }
  } else {
    who.append(h('button', { type: 'button', onclick: () => askSignIn('') }, 'Sign in'));
  }
  for (const a of document.querySelectorAll('nav a[data-role]')) {
    a.hidden = !me.authenticated || !can(a.dataset.role);
  }
}

// ---------- sign-in through the identity provider: the authorization code flow with PKCE
// (RFC 7636). Only the verifier and the state cross the redirect, in sessionStorage; the token
// lives in this module's memory, as Basic credentials do.

const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const redirectUri = () => location.origin + location.pathname;

async function oidcSignIn() {
  const o = me.oidc;
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
  sessionStorage.setItem('quire.pkce', JSON.stringify({ verifier, state, hash: location.hash,
    tokenEndpoint: o.tokenEndpoint, clientId: o.clientId }));
  const q = new URLSearchParams({ response_type: 'code', client_id: o.clientId, redirect_uri: redirectUri(),
    scope: 'openid', state, code_challenge: challenge, code_challenge_method: 'S256' });
  location.assign(o.authorizationEndpoint + '?' + q);
}

/** Back from the provider with ?code=…&state=…: trade the code for a token, then tidy the address. */
async function oidcReturn() {
  const q = new URLSearchParams(location.search);
  if (!q.has('code') && !q.has('error')) return;
  const saved = JSON.parse(sessionStorage.getItem('quire.pkce') || 'null');
  sessionStorage.removeItem('quire.pkce');
  history.replaceState(null, '', location.pathname + ((saved && saved.hash) || ''));
  if (q.has('error')) throw new Error('The identity provider refused the sign-in: ' + (q.get('error_description') || q.get('error')));
  if (!saved || saved.state !== q.get('state')) throw new Error('The sign-in answer does not belong to this page (state).');
  const r = await fetch(saved.tokenEndpoint, {
    method: 'POST', credentials: 'omit',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: q.get('code'), redirect_uri: redirectUri(),
      client_id: saved.clientId, code_verifier: saved.verifier }),
  });
  const t = await r.json().catch(() => ({}));
  if (!r.ok || !t.access_token) throw new Error('The identity provider gave no token: ' + (t.error_description || t.error || r.status));
  authorization = 'Bearer ' + t.access_token;
}

function signOut() {
  authorization = null;
  whoAmI().then(route);
}

function setUpSignIn() {
  const method = document.getElementById('signin-method');
  method.addEventListener('change', () => {
    for (const el of document.querySelectorAll('.signin .basic')) el.hidden = method.value !== 'basic';
    for (const el of document.querySelectorAll('.signin .bearer')) el.hidden = method.value !== 'bearer';
  });
  document.getElementById('signin-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const user = document.getElementById('signin-user').value;
    const password = document.getElementById('signin-password').value;
    const token = document.getElementById('signin-token').value;
    authorization = method.value === 'basic'
      ? 'Basic ' + btoa(unescape(encodeURIComponent(user + ':' + password)))
      : 'Bearer ' + token.trim();
    try {
      await whoAmI();
      if (!me.authenticated) throw new ApiError(401, 40101, 'not signed in');
      document.getElementById('signin-password').value = '';
      document.getElementById('signin-token').value = '';
      document.getElementById('signin').hidden = true;
      route();
    } catch (e) {
      authorization = null;
      document.getElementById('signin-error').textContent = e.status === 401
        ? 'These credentials were refused (401).' : e.message;
    }
  });
}

// ---------- pages

async function subjectsPage() {
  const p = params();
  const prefix = p.get('prefix') || '';
  const deleted = p.get('deleted') === 'true';
  const page = Math.max(0, parseInt(p.get('page') || '0', 10) || 0);
  const form = h('form', { class: 'inline', role: 'search', onsubmit: (ev) => {
    ev.preventDefault();
    go('#/subjects?prefix=' + enc(form.prefix.value) + '&deleted=' + form.deleted.checked);
  } },
  h('label', {}, 'Subject prefix', h('input', { name: 'prefix', value: prefix, placeholder: 'orders-', 'aria-label': 'Subject prefix' })),
  h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'deleted', checked: deleted }), 'Show soft-deleted'),
  h('button', { type: 'submit' }, 'Search'));
  loading('subjects');
  let names;
  try {
    names = await api('/subjects?subjectPrefix=' + enc(prefix) + '&deleted=' + deleted + '&offset=' + page * PAGE + '&limit=' + (PAGE + 1));
  } catch (e) {
    show(h('h1', {}, 'Subjects'), form, failure(e));
    return;
  }
  const more = names.length > PAGE;
  names = names.slice(0, PAGE);
  if (names.length === 0) {
    show(h('h1', {}, 'Subjects'), form, h('p', { class: 'state' }, prefix ? 'No subject starts with “' + prefix + '”.' : 'No subjects yet. Register one from “Check a change”.'));
    return;
  }
  const rows = await Promise.all(names.map(async (s) => {
    const [latest, config] = await Promise.all([
      api('/subjects/' + enc(s) + '/versions/latest' + (deleted ? '?deleted=true' : '')).catch(() => null),
      api('/config/' + enc(s) + '?defaultToGlobal=true').catch(() => null),
    ]);
    return h('tr', {},
      h('td', {}, h('a', { href: '#/subject/' + enc(s) }, s)),
      h('td', {}, latest ? (latest.schemaType || 'AVRO') : '—'),
      h('td', {}, latest ? String(latest.version) : h('span', { class: 'badge deleted' }, 'deleted')),
      h('td', {}, config ? config.compatibilityLevel : '—'));
  }));
  const pager = h('div', { class: 'pager' },
    page > 0 ? h('a', { href: '#/subjects?prefix=' + enc(prefix) + '&deleted=' + deleted + '&page=' + (page - 1) }, '← Previous') : null,
    h('span', { class: 'muted' }, 'Page ' + (page + 1)),
    more ? h('a', { href: '#/subjects?prefix=' + enc(prefix) + '&deleted=' + deleted + '&page=' + (page + 1) }, 'Next →') : null);
  show(h('h1', {}, 'Subjects'), form,
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Subject'), h('th', {}, 'Type'), h('th', {}, 'Latest version'), h('th', {}, 'Compatibility'))),
      h('tbody', {}, rows)), pager);
}

async function subjectPage(subject) {
  loading('subject ' + subject);
  const base = '/subjects/' + enc(subject);
  let numbers;
  try {
    numbers = await api(base + '/versions?deleted=true');
  } catch (e) {
    show(h('h1', {}, subject), failure(e));
    return;
  }
  const versions = await Promise.all(numbers.map((v) => api(base + '/versions/' + v + '?deleted=true')));
  // The audit trail between the first and the last version's times: the server seeks there and stops after it.
  const times = versions.map((v) => v.ts).filter((t) => typeof t === 'number');
  const from = times.length ? '&from=' + Math.min(...times) + '&to=' + Math.max(...times) : '';
  const [live, config, mode, audit] = await Promise.all([
    api(base + '/versions').catch(() => []),
    api('/config/' + enc(subject) + '?defaultToGlobal=true').catch(() => ({})),
    api('/mode/' + enc(subject) + '?defaultToGlobal=true').catch(() => ({})),
    can('ADMIN') ? api('/audit?subject=' + enc(subject) + from + '&limit=1000').catch(() => []) : Promise.resolve(null),
  ]);
  const liveSet = new Set(live);
  // A version's registered time is its journal record's: the audit entry of the same time, in journal order.
  const byTime = new Map();
  for (const e of audit || []) {
    if ((e.command === 'RegisterSchema' || e.command === 'ImportSchema') && !e.errorCode) {
      if (!byTime.has(e.timestamp)) byTime.set(e.timestamp, []);
      byTime.get(e.timestamp).push(e);
    }
  }
  const timeline = h('ol', { class: 'timeline', 'aria-label': 'Versions' }, versions.map((v) => {
    const entry = (byTime.get(v.ts) || []).shift();
    return h('li', { class: liveSet.has(v.version) ? '' : 'deleted' },
      h('a', { href: '#/subject/' + enc(subject) + '?version=' + v.version }, 'Version ' + v.version), ' · ',
      h('a', { href: '#/schema/' + v.id }, 'id ' + v.id), ' · ', when(v.ts),
      entry ? [' · by ', h('strong', {}, entry.principal || '?'), ' ', h('a', { href: '#/audit?subject=' + enc(subject) }, '(audit #' + entry.offset + ')')] : null,
      entry && entry.changeId ? h('div', { class: 'muted change' }, 'change ', h('code', {}, entry.changeId),
        entry.message ? ' · ' + entry.message : null) : null,
      liveSet.has(v.version) ? null : [' ', h('span', { class: 'badge deleted' }, 'soft-deleted')]);
  }));
  const p = params();
  const selected = parseInt(p.get('version') || '', 10) || numbers[numbers.length - 1];
  const current = versions.find((v) => v.version === selected) || versions[versions.length - 1];
  const type = current.schemaType || 'AVRO';
  const referencedBy = await api(base + '/versions/' + current.version + '/referencedby?deleted=true').catch(() => []);

  const a = parseInt(p.get('a') || '', 10) || (numbers.length > 1 ? numbers[numbers.length - 2] : numbers[0]);
  const b = parseInt(p.get('b') || '', 10) || numbers[numbers.length - 1];
  const select = (name, value) => h('select', { name, 'aria-label': name === 'a' ? 'Old version' : 'New version' },
    numbers.map((n) => h('option', { value: n, selected: n === value }, 'version ' + n)));
  const diffForm = h('form', { class: 'inline', onsubmit: (ev) => {
    ev.preventDefault();
    go('#/subject/' + enc(subject) + '?version=' + current.version + '&a=' + diffForm.a.value + '&b=' + diffForm.b.value);
  } }, h('label', {}, 'From', select('a', a)), h('label', {}, 'To', select('b', b)), h('button', { type: 'submit' }, 'Compare'));
  const va = versions.find((v) => v.version === a);
  const vb = versions.find((v) => v.version === b);

  show(
    h('h1', {}, subject),
    h('p', {}, 'Compatibility ', h('span', { class: 'badge', id: 'subject-level' }, config.compatibilityLevel || '—'),
      ' · mode ', h('span', { class: 'badge' }, mode.mode || '—'), ' · type ', h('span', { class: 'badge' }, type), ' · ',
      can('WRITER') ? h('a', { href: '#/check?subject=' + enc(subject) }, 'Check a change to this subject') : 'read only',
      can('ADMIN') ? [' · ', h('a', { href: '#/config?subject=' + enc(subject) }, 'Edit level and mode')] : null,
      definedRecord(current.schema, type) ? [' · ', h('a', { href: '#/impact?record=' + enc(definedRecord(current.schema, type)) },
        'Impact of a change to ' + definedRecord(current.schema, type))] : null),
    h('div', { class: 'grid2' },
      h('section', { 'aria-label': 'Timeline' }, h('h2', {}, 'Versions'), timeline,
        audit === null ? h('p', { class: 'muted' }, 'Who registered each version is in the audit trail, which needs the admin role.') : null),
      h('section', { 'aria-label': 'Version ' + current.version },
        h('h2', {}, 'Version ' + current.version + ' (id ' + current.id + ')'),
        code(pretty(current.schema, type), type),
        current.references && current.references.length ? [h('h2', {}, 'References'), h('ul', {}, current.references.map((r) =>
          h('li', {}, r.name + ' → ', h('a', { href: '#/subject/' + enc(r.subject) + '?version=' + r.version }, r.subject + ' version ' + r.version))))] : null,
        h('h2', {}, 'Referenced by'),
        referencedBy.length ? h('ul', {}, referencedBy.map((id) => h('li', {}, h('a', { href: '#/schema/' + id }, 'schema id ' + id))))
          : h('p', { class: 'muted' }, 'No schema references this version.'),
        current.metadata ? [h('h2', {}, 'Metadata'), code(JSON.stringify(current.metadata, null, 2), 'JSON')] : null,
        current.ruleSet ? [h('h2', {}, 'Rule set'), code(JSON.stringify(current.ruleSet, null, 2), 'JSON')] : null)),
    h('h2', {}, 'Compare two versions'), diffForm,
    va && vb ? diffTable(pretty(va.schema, va.schemaType), pretty(vb.schema, vb.schemaType), a, b) : null);
}

function diffTable(left, right, a, b) {
  const rows = [];
  let ln = 1;
  let rn = 1;
  const parts = diffLines(left, right);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed && parts[i + 1] && parts[i + 1].added) {
      const added = parts[i + 1].value.replace(/\n$/, '').split('\n');
      const n = Math.max(lines.length, added.length);
      for (let k = 0; k < n; k++) {
        rows.push(h('tr', {},
          h('td', { class: 'num' }, k < lines.length ? ln++ : ''), h('td', { class: k < lines.length ? 'del' : '' }, lines[k] ?? ''),
          h('td', { class: 'num' }, k < added.length ? rn++ : ''), h('td', { class: k < added.length ? 'add' : '' }, added[k] ?? '')));
      }
      i++;
    } else if (part.removed) {
      for (const l of lines) rows.push(h('tr', {}, h('td', { class: 'num' }, ln++), h('td', { class: 'del' }, l), h('td', { class: 'num' }), h('td', {})));
    } else if (part.added) {
      for (const l of lines) rows.push(h('tr', {}, h('td', { class: 'num' }), h('td', {}), h('td', { class: 'num' }, rn++), h('td', { class: 'add' }, l)));
    } else {
      for (const l of lines) rows.push(h('tr', {}, h('td', { class: 'num' }, ln++), h('td', {}, l), h('td', { class: 'num' }, rn++), h('td', {}, l)));
    }
  }
  const changed = parts.some((p) => p.added || p.removed);
  return h('div', {},
    h('p', { class: 'muted', role: 'status' }, changed ? 'Version ' + a + ' (left) against version ' + b + ' (right).' : 'Versions ' + a + ' and ' + b + ' are the same text.'),
    h('table', { class: 'diff', 'aria-label': 'Differences' },
      h('colgroup', {}, h('col', { style: 'width:3em' }), h('col', {}), h('col', { style: 'width:3em' }), h('col', {})), h('tbody', {}, rows)));
}

async function checkPage() {
  if (!can('WRITER')) {
    show(h('h1', {}, 'Check a change'), h('p', { class: 'state error', role: 'alert' },
      'Compatibility checks and registrations need the writer role; you are signed in as a ' + me.role.toLowerCase() + '.'));
    return;
  }
  const p = params();
  const subject = p.get('subject') || '';
  const form = h('form', { 'aria-label': 'Check a schema' },
    h('div', { class: 'inline' },
      h('label', {}, 'Subject', h('input', { name: 'subject', value: subject, required: true, placeholder: 'orders-value' })),
      h('label', {}, 'Level', h('select', { name: 'level' }, h('option', { value: '' }, "the subject's own"), LEVELS.map((l) => h('option', { value: l }, l)))),
      h('label', {}, 'Type', h('select', { name: 'type' }, ['AVRO', 'JSON', 'PROTOBUF'].map((t) => h('option', { value: t }, t))))),
    h('label', { style: 'display:flex' }, 'Schema', h('textarea', { name: 'schema', required: true, spellcheck: 'false', placeholder: '{"type":"record","name":"Order","fields":[…]}' })),
    h('p', { class: 'inline' },
      h('button', { type: 'submit', name: 'check' }, 'Check compatibility'),
      h('button', { type: 'button', class: 'secondary', name: 'register', onclick: () => register(form) }, 'Register this version')));
  const verdict = h('div', { id: 'verdict', 'aria-live': 'polite' });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    verdict.replaceChildren(h('p', { class: 'state', role: 'status' }, 'Checking…'));
    const body = request(form);
    const level = form.level.value ? '&level=' + form.level.value : '';
    try {
      const r = await api('/compatibility/subjects/' + enc(form.subject.value) + '/versions?verbose=true' + level, { method: 'POST', body });
      verdict.replaceChildren(h('div', { class: 'verdict ' + (r.is_compatible ? 'good' : 'bad'), role: 'status' },
        r.is_compatible ? 'Compatible: this change can be registered.' : 'Incompatible: registering it would be refused.'),
      r.messages && r.messages.length ? h('ul', { class: 'messages' }, r.messages.map((m) => h('li', {}, m))) : null);
    } catch (e) {
      verdict.replaceChildren(failure(e));
    }
  });
  async function register(f) {
    if (!f.reportValidity()) return;
    verdict.replaceChildren(h('p', { class: 'state', role: 'status' }, 'Registering…'));
    try {
      const r = await api('/subjects/' + enc(f.subject.value) + '/versions', { method: 'POST', body: request(f) });
      verdict.replaceChildren(h('div', { class: 'verdict good', role: 'status' }, 'Registered as schema id ' + r.id + '. ',
        h('a', { href: '#/subject/' + enc(f.subject.value) }, 'See ' + f.subject.value)));
    } catch (e) {
      verdict.replaceChildren(failure(e));
    }
  }
  show(h('h1', {}, 'Check a change'), h('p', { class: 'muted' }, 'Paste a schema and see whether the subject would take it, with the reasons when not.'), form, verdict);
}

function request(form) {
  const body = { schema: form.schema.value };
  if (form.type.value !== 'AVRO') body.schemaType = form.type.value;
  return body;
}

async function schemaPage(id) {
  const form = h('form', { class: 'inline', role: 'search', onsubmit: (ev) => {
    ev.preventDefault();
    const v = form.key.value.trim();
    go(/^\d+$/.test(v) ? '#/schema/' + v : '#/guid/' + enc(v));
  } }, h('label', {}, 'Schema id or GUID', h('input', { name: 'key', value: id || '', required: true })), h('button', { type: 'submit' }, 'Show'));
  if (!id) {
    show(h('h1', {}, 'Schema by id'), form, h('p', { class: 'state' }, 'Type a schema id (as in a record’s wire format) or a GUID.'));
    return;
  }
  loading('schema ' + id);
  try {
    const guid = !/^\d+$/.test(id);
    const s = await api(guid ? '/schemas/guids/' + enc(id) : '/schemas/ids/' + id);
    const ids = guid ? await api('/schemas/guids/' + enc(id) + '/ids') : [{ id: Number(id) }];
    const uses = (await Promise.all(ids.map((x) => api('/schemas/ids/' + x.id + '/versions?deleted=true').catch(() => [])))).flat();
    const type = s.schemaType || 'AVRO';
    show(h('h1', {}, guid ? 'Schema ' + id : 'Schema id ' + id), form,
      h('p', {}, 'Type ', h('span', { class: 'badge' }, type), s.guid ? [' · GUID ', h('code', {}, s.guid)] : null),
      code(pretty(s.schema, type), type),
      h('h2', {}, 'Used by'),
      uses.length ? h('ul', {}, uses.map((u) => h('li', {}, h('a', { href: '#/subject/' + enc(u.subject) + '?version=' + u.version }, u.subject + ' version ' + u.version))))
        : h('p', { class: 'muted' }, 'No subject version uses it.'));
  } catch (e) {
    show(h('h1', {}, 'Schema by id'), form, failure(e));
  }
}

async function configPage() {
  const subject = params().get('subject') || '';
  loading('settings');
  try {
    const [global, globalMode] = await Promise.all([api('/config'), api('/mode')]);
    const admin = can('ADMIN');
    const levelForm = (path, level, label) => {
      const f = h('form', { class: 'inline', 'aria-label': label, onsubmit: async (ev) => {
        ev.preventDefault();
        const out = f.querySelector('.result');
        try {
          await api('/config' + path, { method: 'PUT', body: { compatibility: f.level.value } });
          out.replaceChildren(h('span', { class: 'ok', role: 'status' }, 'Saved: ' + f.level.value));
        } catch (e) {
          out.replaceChildren(failure(e));
        }
      } },
      h('label', {}, label, h('select', { name: 'level', disabled: !admin }, LEVELS.map((l) => h('option', { value: l, selected: l === level }, l)))),
      admin ? h('button', { type: 'submit' }, 'Save level') : h('span', { class: 'muted' }, 'Changing it needs the admin role.'),
      h('span', { class: 'result' }));
      return f;
    };
    const modeForm = (path, mode, label) => {
      const f = h('form', { class: 'inline', 'aria-label': label, onsubmit: async (ev) => {
        ev.preventDefault();
        const out = f.querySelector('.result');
        try {
          await api('/mode' + path, { method: 'PUT', body: { mode: f.mode.value } });
          out.replaceChildren(h('span', { class: 'ok', role: 'status' }, 'Saved: ' + f.mode.value));
        } catch (e) {
          out.replaceChildren(failure(e));
        }
      } },
      h('label', {}, label, h('select', { name: 'mode', disabled: !admin }, MODES.map((m) => h('option', { value: m, selected: m === mode }, m)))),
      admin ? h('button', { type: 'submit' }, 'Save mode') : null, h('span', { class: 'result' }));
      return f;
    };
    // Lint settings (docs/lint.md): a profile, rules added or removed by name, PII patterns, refuse or warn.
    const lintForm = (path, lint, label) => {
      const l = lint || {};
      const f = h('form', { class: 'lint', 'aria-label': label, onsubmit: async (ev) => {
        ev.preventDefault();
        const out = f.querySelector('.result');
        const list = (text) => text.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);
        const body = { profile: f.profile.value, action: f.action.value };
        if (list(f.use.value).length) body.use = list(f.use.value);
        if (list(f.except.value).length) body.except = list(f.except.value);
        if (list(f.pii.value).length) body.piiPatterns = list(f.pii.value);
        try {
          await api('/config' + path, { method: 'PUT', body: { lint: body } });
          out.replaceChildren(h('span', { class: 'ok', role: 'status' }, 'Saved: lint ' + body.profile + ', ' + body.action));
        } catch (e) {
          out.replaceChildren(failure(e));
        }
      } },
      h('label', {}, 'Lint profile', h('select', { name: 'profile', disabled: !admin },
        ['NONE', 'MINIMAL', 'BASIC', 'STANDARD'].map((p) => h('option', { value: p, selected: p === (l.profile || (lint ? 'STANDARD' : 'NONE')) }, p)))),
      h('label', {}, 'On a violation', h('select', { name: 'action', disabled: !admin },
        ['REFUSE', 'WARN'].map((a) => h('option', { value: a, selected: a === (l.action || 'REFUSE').toUpperCase() }, a)))),
      h('label', {}, 'Also use', h('input', { name: 'use', value: (l.use || []).join(' '), disabled: !admin, placeholder: 'COMMENTS AVRO_FIELD_DOC' })),
      h('label', {}, 'Except', h('input', { name: 'except', value: (l.except || []).join(' '), disabled: !admin, placeholder: 'ENUM_VALUE_PREFIX' })),
      h('label', {}, 'PII patterns', h('input', { name: 'pii', value: (l.piiPatterns || []).join(' '), disabled: !admin, placeholder: 'email ssn phone' })),
      admin ? h('button', { type: 'submit' }, 'Save lint') : null, h('span', { class: 'result' }));
      return f;
    };
    const nodes = [h('h1', {}, 'Config and modes'), h('h2', {}, 'Registry'),
      levelForm('', global.compatibilityLevel, 'Global compatibility'), modeForm('', globalMode.mode, 'Global mode'),
      lintForm('', global.lint, 'Global lint'),
      h('h2', {}, 'A subject'),
      h('form', { class: 'inline', role: 'search', onsubmit: (ev) => { ev.preventDefault(); go('#/config?subject=' + enc(ev.target.subject.value)); } },
        h('label', {}, 'Subject', h('input', { name: 'subject', value: subject, required: true })), h('button', { type: 'submit' }, 'Show'))];
    if (subject) {
      const [own, ownMode] = await Promise.all([
        api('/config/' + enc(subject) + '?defaultToGlobal=true').catch(() => ({})),
        api('/mode/' + enc(subject) + '?defaultToGlobal=true').catch(() => ({}))]);
      nodes.push(levelForm('/' + enc(subject), own.compatibilityLevel, 'Compatibility of ' + subject),
        modeForm('/' + enc(subject), ownMode.mode, 'Mode of ' + subject),
        lintForm('/' + enc(subject), own.lint, 'Lint of ' + subject));
    }
    show(...nodes);
  } catch (e) {
    show(h('h1', {}, 'Config and modes'), failure(e));
  }
}

async function clusterPage() {
  loading('the cluster');
  const render = async () => {
    let cluster;
    let recent;
    let follow;
    try {
      [cluster, recent, follow] = await Promise.all([api('/admin/cluster'), api('/admin/recent'), api('/admin/follow')]);
    } catch (e) {
      show(h('h1', {}, 'Cluster'), failure(e));
      return false;
    }
    const digests = new Set(cluster.nodes.filter((n) => n.digest).map((n) => n.digest));
    const table = h('table', { 'aria-label': 'Nodes' },
      h('thead', {}, h('tr', {}, ['Node', 'Ready', 'Applied offset', 'Apply lag', 'Position digest', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, cluster.nodes.map((n) => h('tr', {},
        h('td', {}, n.self ? 'this node' + (n.nodeId ? ' (' + n.nodeId + ')' : '') : n.url),
        h('td', {}, n.error ? '—' : n.ready ? 'yes' : 'no'),
        h('td', {}, n.appliedOffset ?? '—'), h('td', {}, n.lag ?? '—'),
        h('td', {}, n.digest ? h('code', {}, n.digest.slice(0, 16) + '…') : '—'),
        h('td', {}, n.error ? h('span', { class: 'error' }, n.error) : digests.size > 1 ? h('span', { class: 'differs' }, 'digests differ') : h('span', { class: 'same' }, 'in step'))))));
    const chart = h('div', { class: 'chart', id: 'chart', 'aria-label': 'Apply lag and request rate' });
    show(h('h1', {}, 'Cluster'), followBox(follow),
      h('p', {}, 'Journal end offset ', h('strong', {}, String(cluster.journalEnd)), '. Nodes at the same offset with the same digest hold the same view (the ', h('code', {}, 'verify'), ' check).'),
      table, h('h2', {}, 'The last minutes on this node'), chart,
      cluster.nodes.length === 1 ? h('p', { class: 'muted' }, 'Other nodes appear here when this node is started with --peer-nodes.') : null);
    drawChart(chart, recent);
    return true;
  };
  if (await render()) {
    timer = setInterval(() => { if (location.hash.startsWith('#/cluster')) render(); }, 5000);
  }
}

/** While the registry follows a Confluent registry: what, how far behind, and how to finish. */
function followBox(f) {
  if (!f || !f.source) return null;
  if (!f.following) return h('p', { class: 'muted' }, 'Cut over from ', h('code', {}, f.source), ' at its offset ' + f.lastSourceOffset + '.');
  const w = f.follower;
  return h('section', { class: 'follow', 'aria-label': 'Following' },
    h('h2', {}, 'Following ', h('code', {}, f.source)),
    h('p', {}, 'Read-only until the cut-over. Last source offset copied: ', h('strong', {}, String(f.lastSourceOffset)), '.'),
    w ? h('p', {}, 'Follower on this node: ' + w.state.toLowerCase() + ', ',
      h('strong', { id: 'follow-lag' }, (w.lagRecords < 0 ? '?' : String(w.lagRecords)) + ' records'), ' and ',
      h('strong', {}, w.lagSeconds.toFixed(1) + ' s'), ' behind; ' + w.recordsCopied + ' copied, ' + w.recordsSkipped + ' skipped.',
      w.lastError ? h('span', { class: 'error' }, ' ' + w.lastError) : null)
      : h('p', { class: 'muted' }, 'The follower runs on the node started with --follow-confluent.'));
}

function drawChart(el, recent) {
  const s = recent.samples;
  if (!window.uPlot || s.length < 3) {
    el.append(h('p', { class: 'muted' }, 'Collecting samples (one every ' + recent.intervalSeconds + ' s)…'));
    return;
  }
  const t = [];
  const lag = [];
  const rate = [];
  for (let i = 1; i < s.length; i++) {
    t.push(s[i].atMillis / 1000);
    lag.push(Math.max(0, s[i].journalEnd - 1 - s[i].appliedOffset));
    rate.push(Math.max(0, (s[i].requests - s[i - 1].requests) / ((s[i].atMillis - s[i - 1].atMillis) / 1000)));
  }
  // eslint-disable-next-line new-cap
  new window.uPlot({
    width: Math.min(1180, el.clientWidth || 1000), height: 220,
    series: [{}, { label: 'apply lag (records)', stroke: '#b42318', scale: 'lag' }, { label: 'requests/s', stroke: '#2456c7', scale: 'rate' }],
    axes: [{}, { scale: 'lag', label: 'lag' }, { scale: 'rate', side: 1, label: 'req/s', grid: { show: false } }],
  }, [t, lag, rate], el);
}

async function auditPage() {
  const p = params();
  const f = { subject: p.get('subject') || '', principal: p.get('principal') || '', from: p.get('from') || '', to: p.get('to') || '' };
  const form = h('form', { class: 'inline', role: 'search', onsubmit: (ev) => {
    ev.preventDefault();
    go('#/audit?' + new URLSearchParams({ subject: form.subject.value, principal: form.principal.value, from: form.from.value, to: form.to.value }));
  } },
  h('label', {}, 'Subject', h('input', { name: 'subject', value: f.subject })),
  h('label', {}, 'Principal', h('input', { name: 'principal', value: f.principal })),
  h('label', {}, 'From (ISO time)', h('input', { name: 'from', value: f.from, placeholder: '2026-12-01T00:00:00Z' })),
  h('label', {}, 'To', h('input', { name: 'to', value: f.to })),
  h('button', { type: 'submit' }, 'Filter'));
  loading('the audit trail');
  const q = new URLSearchParams({ limit: '500' });
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  try {
    const entries = await api('/audit?' + q);
    if (!entries.length) {
      show(h('h1', {}, 'Audit trail'), form, h('p', { class: 'state' }, 'No entry matches.'));
      return;
    }
    show(h('h1', {}, 'Audit trail'), form, h('table', { 'aria-label': 'Audit entries' },
      h('thead', {}, h('tr', {}, ['Offset', 'Time', 'Principal', 'Command', 'Subject', 'Outcome', 'Change'].map((t) => h('th', {}, t)))),
      h('tbody', {}, entries.slice().reverse().map((e) => h('tr', {},
        h('td', {}, String(e.offset)), h('td', {}, when(e.timestamp)), h('td', {}, e.principal || '—'), h('td', {}, e.command),
        h('td', {}, e.subject ? h('a', { href: '#/subject/' + enc(e.subject) }, e.subject) : '—'),
        h('td', { class: e.errorCode ? 'error' : '' }, e.outcome + (e.errorCode ? ' (' + e.errorCode + ')' : '')),
        h('td', { title: e.message || '' }, e.changeId ? [h('code', {}, e.changeId), e.message ? ' ' + e.message : null] : '—'))))));
  } catch (e) {
    show(h('h1', {}, 'Audit trail'), form, failure(e));
  }
}

// ---------- search and impact

const KINDS = ['field', 'record', 'namespace', 'doc', 'tag', 'property', 'subject'];

/** The text with the parts a pattern's literal pieces match marked, in order, case-insensitively. */
function marked(text, pattern) {
  const pieces = (pattern || '').toLowerCase().split(/[*?]/).filter(Boolean);
  const out = [];
  let at = 0;
  const lower = text.toLowerCase();
  for (const piece of pieces) {
    const i = lower.indexOf(piece, at);
    if (i < 0) break;
    out.push(text.slice(at, i), h('mark', {}, text.slice(i, i + piece.length)));
    at = i + piece.length;
  }
  out.push(text.slice(at));
  return out;
}

/** The impact link of a hit: records and fields can be followed through references. */
function impactLink(kind, path) {
  if (kind !== 'record' && kind !== 'field') return null;
  return h('a', { href: '#/impact?' + kind + '=' + enc(path), title: 'Who a change to it would touch' }, 'Impact');
}

async function searchPage() {
  const p = params();
  const q = p.get('q') || '';
  const kind = p.get('kind') || '';
  const tag = p.get('tag') || '';
  const latest = p.get('latestOnly') === 'true';
  const deleted = p.get('deleted') === 'true';
  const page = Math.max(0, parseInt(p.get('page') || '0', 10) || 0);
  const box = document.getElementById('search-q');
  if (box && document.activeElement !== box) box.value = q;
  const query = (over) => new URLSearchParams({ q, kind, tag, latestOnly: latest, deleted, page, ...over }).toString();
  const form = h('form', { class: 'inline', role: 'search', 'aria-label': 'Search options', onsubmit: (ev) => {
    ev.preventDefault();
    go('#/search?' + new URLSearchParams({ q: form.q.value, kind: form.kind.value, tag: form.tag.value,
      latestOnly: form.latestOnly.checked, deleted: form.deleted.checked, page: 0 }).toString());
  } },
  h('label', {}, 'Term', h('input', { name: 'q', value: q, placeholder: 'customer*', 'aria-label': 'Term' })),
  h('label', {}, 'Kind', h('select', { name: 'kind', 'aria-label': 'Kind' }, h('option', { value: '' }, 'any'),
    KINDS.map((k) => h('option', { value: k, selected: k === kind }, k)))),
  h('label', {}, 'Tag', h('input', { name: 'tag', value: tag, placeholder: 'PII', 'aria-label': 'Tag' })),
  h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'latestOnly', checked: latest }), 'Latest versions only'),
  h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'deleted', checked: deleted }), 'Soft-deleted too'),
  h('button', { type: 'submit' }, 'Search'));
  if (!q && !tag) {
    show(h('h1', {}, 'Search'), form, h('p', { class: 'state' }, 'Search names, fields, docs, tags and metadata: '
      + 'a term (customer_id), a prefix (customer*), a wildcard (*_id), any case. Tags alone list what carries them.'));
    return;
  }
  loading('hits');
  let answer;
  try {
    answer = await api('/search?' + new URLSearchParams({ q, tag, latestOnly: latest, deleted, offset: page * PAGE, limit: PAGE,
      ...(kind ? { kind } : {}) }).toString());
  } catch (e) {
    show(h('h1', {}, 'Search'), form, failure(e));
    return;
  }
  if (answer.hits.length === 0) {
    show(h('h1', {}, 'Search'), form, h('p', { class: 'state' }, 'Nothing matches “' + (q || tag) + '”.'));
    return;
  }
  const rows = answer.hits.map((hit) => h('tr', {},
    h('td', {}, h('a', { href: '#/subject/' + enc(hit.subject) + '?version=' + hit.version }, hit.subject)),
    h('td', {}, String(hit.version), hit.deleted ? [' ', h('span', { class: 'badge deleted' }, 'deleted')] : null),
    h('td', {}, hit.kind),
    h('td', { class: 'match' }, marked(hit.term, q || tag)),
    h('td', {}, hit.paths.flatMap((path, i) => [i ? h('br') : null, h('code', {}, path)])),
    h('td', {}, hit.schemaType),
    h('td', {}, hit.paths.length ? impactLink(hit.kind, hit.paths[0]) : null)));
  const pager = h('div', { class: 'pager' },
    page > 0 ? h('a', { href: '#/search?' + query({ page: page - 1 }) }, '← Previous') : null,
    h('span', { class: 'muted' }, 'Page ' + (page + 1)),
    answer.more ? h('a', { href: '#/search?' + query({ page: page + 1 }) }, 'Next →') : null,
    answer.cutShort ? h('span', { class: 'muted' }, 'The search stopped at its limit: narrow it down.') : null);
  show(h('h1', {}, 'Search'), form,
    h('table', { 'aria-label': 'Hits' }, h('thead', {}, h('tr', {}, ['Subject', 'Version', 'Kind', 'Match', 'Where', 'Type', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, rows)), pager);
}

async function impactPage() {
  const p = params();
  const kind = p.has('field') ? 'field' : 'record';
  const name = p.get(kind) || '';
  loading('uses of ' + name);
  let answer;
  try {
    answer = await api('/search/impact?' + kind + '=' + enc(name));
  } catch (e) {
    show(h('h1', {}, 'Impact'), failure(e));
    return;
  }
  const title = h('h1', {}, 'Who a change to ' + kind + ' ', h('code', {}, name), ' would touch');
  if (answer.uses.length === 0) {
    show(title, h('p', { class: 'state' }, 'No version you may read uses it.'));
    return;
  }
  const direct = answer.uses.filter((u) => u.via.length === 0).length;
  show(title,
    h('p', {}, direct + ' version(s) define it, ' + (answer.uses.length - direct) + ' use it through references.'),
    h('table', { 'aria-label': 'Uses' }, h('thead', {}, h('tr', {}, ['Subject', 'Version', 'How', 'Where'].map((t) => h('th', {}, t)))),
      h('tbody', {}, answer.uses.map((u) => h('tr', {},
        h('td', {}, h('a', { href: '#/subject/' + enc(u.subject) + '?version=' + u.version }, u.subject)),
        h('td', {}, String(u.version), u.deleted ? [' ', h('span', { class: 'badge deleted' }, 'deleted')] : null),
        h('td', { class: 'via' }, u.via.length === 0 ? 'defines it' : ['through ', u.via.join(' → ')]),
        h('td', {}, h('code', {}, u.path)))))),
    answer.cutShort ? h('p', { class: 'muted' }, 'The list stopped at its limit.') : null);
}

/** The full name of the record a version defines first (Avro, JSON Schema title, Protobuf), for its impact link. */
function definedRecord(schema, type) {
  if (type === 'PROTOBUF') {
    const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(schema);
    const msg = /^\s*message\s+(\w+)/m.exec(schema);
    return msg ? (pkg ? pkg[1] + '.' : '') + msg[1] : null;
  }
  try {
    const doc = JSON.parse(schema);
    if (type === 'JSON') return doc.title || null;
    if (!doc || !doc.name) return null;
    return doc.name.includes('.') || !doc.namespace ? doc.name : doc.namespace + '.' + doc.name;
  } catch {
    return null;
  }
}

// ---------- routing

async function route() {
  generation++;
  if (timer) { clearInterval(timer); timer = null; }
  const [path] = (location.hash || '#/subjects').slice(1).split('?');
  const parts = path.split('/').filter(Boolean);
  const page = parts[0] || 'subjects';
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.page === page || (page === 'subject' && a.dataset.page === 'subjects') || (page === 'guid' && a.dataset.page === 'schema')
      || (page === 'impact' && a.dataset.page === 'search')) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (me.authentication && !me.authenticated) {
    show(h('h1', {}, 'Quire console'), h('p', { class: 'state' }, 'This node requires authentication. Sign in above to browse the registry.'));
    askSignIn('');
    return;
  }
  const arg = parts.slice(1).map(decodeURIComponent).join('/');
  switch (page) {
    case 'subject': return subjectPage(arg);
    case 'check': return checkPage();
    case 'schema': return schemaPage(arg);
    case 'guid': return schemaPage(arg);
    case 'config': return configPage();
    case 'cluster': return clusterPage();
    case 'audit': return auditPage();
    case 'search': return searchPage();
    case 'impact': return impactPage();
    default: return subjectsPage();
  }
}

async function start() {
  setUpSignIn();
  document.getElementById('search-box').addEventListener('submit', (ev) => {
    ev.preventDefault();
    go('#/search?' + new URLSearchParams({ q: document.getElementById('search-q').value, page: 0 }).toString());
  });
  document.getElementById('signin-oidc-button').addEventListener('click', () => oidcSignIn());
  let signInFailed = null;
  try {
    await oidcReturn();
  } catch (e) {
    authorization = null;
    signInFailed = e.message;
  }
  try {
    await whoAmI();
    if (signInFailed) askSignIn(signInFailed);
  } catch (e) {
    show(h('h1', {}, 'Quire console'), failure(e));
    return;
  }
  window.addEventListener('hashchange', () => route().then(() => main().focus({ preventScroll: true })));
  await route();
}

start();
