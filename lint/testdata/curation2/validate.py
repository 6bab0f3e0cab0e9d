#!/usr/bin/env python3
"""Validate manifest.jsonl against corpus + overlay. Usage: python3 validate.py"""
import os, re, json, sys
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("PT_CORPORA", "/work/shared/corpora")
errs = []

def load(corpus):
    files = {}
    base = os.path.join(ROOT, corpus)
    for r, d, fs in os.walk(base):
        for f in fs:
            p = os.path.join(r, f)
            files[os.path.relpath(p, base)] = open(p, encoding='utf-8', errors='replace').read()
    ob = os.path.join(HERE, corpus, 'overlay')
    for r, d, fs in os.walk(ob):
        for f in fs:
            p = os.path.join(r, f)
            files[os.path.relpath(p, ob)] = open(p, encoding='utf-8', errors='replace').read()
    return files

def names(rel, text):
    """title / heading / file-name strings of a page, lower-cased, '-'/'_' as spaces"""
    out = [re.sub(r'[-_]+', ' ', os.path.splitext(os.path.basename(rel))[0]).lower()]
    lines = text.split('\n')
    if lines and lines[0].strip() == '---':
        for l in lines[1:40]:
            if l.strip() == '---': break
            m = re.match(r'\s*title:\s*(.*)', l)
            if m: out.append(m.group(1).strip('"\' ').lower())
    incode = False
    for l in lines:
        if l.lstrip().startswith('```'): incode = not incode; continue
        if not incode and re.match(r'#{1,6}\s', l): out.append(l.lstrip('#').strip().lower())
    return [re.sub(r'[\s\-]+', ' ', x) for x in out]

corp = {}
ents = [json.loads(l) for l in open(os.path.join(HERE, 'manifest.jsonl'))]
ids = set()
for e in ents:
    i = e['id']
    if i in ids: errs.append(f'{i}: duplicate id')
    ids.add(i)
    for k in ['id', 'corpus', 'kind', 'decoy', 'pages', 'lines', 'subject', 'values', 'note', 'split']:
        if k not in e: errs.append(f'{i}: missing field {k}')
    if e['split'] != 'check': errs.append(f'{i}: split')
    c = e['corpus']
    if c not in corp: corp[c] = load(c)
    F = corp[c]
    for p in e['pages']:
        if p not in F: errs.append(f'{i}: page {p} missing')
    k = e['kind']
    if k == 'contradiction':
        if len(e['pages']) != 2 or len(e['lines']) != 2 or len(e['values']) != 2 or e['pages'][0] == e['pages'][1]:
            errs.append(f'{i}: contradiction needs 2 distinct pages/lines/values'); continue
        for p, ln, v in zip(e['pages'], e['lines'], e['values']):
            L = F[p].split('\n')
            if not (1 <= ln <= len(L)) or v not in L[ln-1]: errs.append(f'{i}: {v!r} not on {p}:{ln}')
    elif k == 'stale_claim':
        p, ln = e['pages'][0], e['lines'][0]
        L = F[p].split('\n')
        for v in e['values']:
            if not (1 <= ln <= len(L)) or v not in L[ln-1]: errs.append(f'{i}: {v!r} not on {p}:{ln}')
    elif k == 'missing_concept':
        t = e['term']
        rx = re.compile(r'[\s\-]+'.join(map(re.escape, t.split())), re.I)
        using = sorted(p for p, x in F.items() if p.endswith('.md') and rx.search(x))
        if using != sorted(e['pages']): errs.append(f'{i}: pages differ: extra={set(using)-set(e["pages"])} missing={set(e["pages"])-set(using)}')
        if len(using) < 4: errs.append(f'{i}: term used on {len(using)} pages (<4)')
        tn = re.sub(r'[\s\-]+', ' ', t.lower())
        named = [p for p, x in F.items() if p.endswith('.md') and any(tn in n for n in names(p, x))]
        if e['decoy'] and not named: errs.append(f'{i}: decoy term {t!r} not named by any title/heading/file name')
        if not e['decoy'] and named: errs.append(f'{i}: term {t!r} named by {named[:3]}')
    elif k == 'merge_candidate':
        if len(e['pages']) != 2: errs.append(f'{i}: merge needs 2 pages')
    else:
        errs.append(f'{i}: bad kind')
    pre = {'gowiki': 'g2-', 'k8s-community': 'k2-', 'playbook': 'p2-'}[c]
    kl = {'contradiction': 'c', 'stale_claim': 's', 'missing_concept': 'm', 'merge_candidate': 'g'}[k]
    if not re.fullmatch(re.escape(pre + kl + ('d' if e['decoy'] else '')) + r'\d\d', i): errs.append(f'{i}: id pattern')

# overlay files exist and are non-empty
for c in ['gowiki', 'k8s-community', 'playbook']:
    ob = os.path.join(HERE, c, 'overlay')
    if not os.path.isdir(ob): errs.append(f'no overlay for {c}')

from collections import Counter
cnt = Counter((e['corpus'], e['kind'], e['decoy']) for e in ents)
for key in sorted(cnt): print(*key, cnt[key])
print(len(ents), 'entries')
if errs:
    print('\n'.join(errs)); print(f'FAILED: {len(errs)} problems'); sys.exit(1)
print('OK')
