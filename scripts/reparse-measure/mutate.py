# Edits of real files of four client libraries, as a fix could make them (seeded, reproducible):
# python3 mutate.py CACHE OUT, where CACHE holds xanzy/go-gitlab, python-gitlab/python-gitlab,
# jdalrymple/gitbeaker and NARKOZ/gitlab (commits in docs/architecture.md).
import os, random, re, sys
random.seed(36)
C, OUT = sys.argv[1], sys.argv[2]
langs = {'go': ('xanzy/go-gitlab', '.go'), 'py': ('python-gitlab/python-gitlab', '.py'),
         'ts': ('jdalrymple/gitbeaker', '.ts'), 'rb': ('NARKOZ/gitlab', '.rb')}
out = open(os.path.join(OUT, 'pairs.tsv'), 'w')
key = re.compile(r'''(["'])([a-z_][a-z0-9_]{2,30})\1''')
goparam = re.compile(r'func (?:\([^)]*\) )?\w+\((\w+)(?:, \w+)* [\w.*\[\]]')
# TypeScript: a function's, method's or arrow's first annotated parameter (drawn apart, so that
# the other draws stay those of the first sample).
tsparam = re.compile(r'(?:function \w+|\n\s+(?:async )?\w+|=\s*(?:async )?)\((\w+)\??:')
ts_draw = random.Random(36)
# Ruby: a method's first parameter in parentheses (drawn apart too).
rbparam = re.compile(r'def (?:self\.)?\w+[?!]?\((\w+)')
rb_draw = random.Random(36)
pyparam = re.compile(r'def \w+\((?:self, |cls, )?(?!self\b|cls\b)(\w+)')
for lang, (repo, ext) in langs.items():
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(os.path.join(C, repo)) for f in fs if f.endswith(ext))
    random.shuffle(files)
    n = 0
    for path in files:
        text = open(path, encoding='utf-8', errors='replace').read()
        imp = re.compile(r'^\s*(import\s+)?(\w+\s+)?"[^"]*"\s*$')
        def line_of(m):
            a = text.rfind('\n', 0, m.start()) + 1
            b = text.find('\n', m.end())
            return text[a:b if b >= 0 else len(text)]
        keys = [m for m in key.finditer(text) if not (lang == 'go' and imp.match(line_of(m)))]
        if not keys:
            continue
        n += 1
        if n > 150:
            break
        m = random.choice(keys)
        q, name = m.group(1), m.group(2)
        s, e = m.span()
        variants = {
            'benign': text[:s] + q + name + '_renamed' + q + text[e:],
            'quote': text[:s] + q + name[:2] + q + name[2:] + q + text[e:],
            'range': text[:s] + q + name + '_renamed' + text[e:],
        }
        pm = {'go': goparam, 'py': pyparam, 'ts': tsparam, 'rb': rbparam}.get(lang)
        if pm:
            ms = [x for x in pm.finditer(text) if len(re.findall(r'\b%s\b' % x.group(1), text[x.end():x.end()+3000])) > 0]
            if ms:
                x = {'ts': ts_draw, 'rb': rb_draw}.get(lang, random).choice(ms)
                variants['decl'] = text[:x.start(1)] + x.group(1) + '_renamed' + text[x.end(1):]
        for kind, t in variants.items():
            d = os.path.join(OUT, lang, kind)
            os.makedirs(d, exist_ok=True)
            mp = f'{d}/{n}{ext}'
            open(mp, 'w').write(t)
            out.write(f'{lang}\t{kind}\t{path}\t{mp}\n')
