"""Compares a pyradiance run on daylit with RADIANCE's: every step must succeed and give a
value within 2 % of RADIANCE's (within 0.02 for DGP), except the known gaps listed below.
Usage: compare.py GOLDENS_JSON SUMMARY_JSON"""
import json
import sys

# Steps known to miss the tolerance, with the reason; reported, not failed. A known gap that
# closes fails the run, so that it is taken off this list.
KNOWN_GAPS = {
    'rpict | pfilt -x /2: mean luminance (cd/m2)':
        "issue 20: RADIANCE's lazy cache is the one off here: without a cache both programs "
        'give 167.8 cd/m2 on this view (rpict -ps 1 -ab 2 -ad 2048 -aa 0 -lw 1e-5; their '
        'pixel rays agree within 0.05 %), RADIANCE at these options 172.6 (+2.9 %), daylit '
        '167.7 (-0.1 %; 166.6-167.5 over seeds 0-2 before final gathers weighted their rays as records)',
}
goldens, summary = (json.load(open(p)) for p in sys.argv[1:3])
bad = 0
for name, ref in sorted(goldens.items()):
    got = summary.get(name, {'error': 'not run'})
    if 'error' in ref:
        print(f'skip {name}: RADIANCE itself failed ({ref["error"]})')
        continue
    if 'error' in got:
        print(f'FAIL {name}: {got["error"]}')
        bad += 1
        continue
    a, b = ref['value'], got['value']
    if 'DGP' in name:
        ok, how = abs(b - a) <= 0.02, f'{b - a:+.3f}'
    else:
        rel = (b - a) / a * 100 if a else 0.0
        ok, how = abs(rel) <= 2.0, f'{rel:+.2f} %'
    gap = KNOWN_GAPS.get(name)
    if gap and not ok:
        print(f'GAP  {name}: RADIANCE {a:.5g}, daylit {b:.5g} ({how}); known: {gap}')
        continue
    if gap:
        print(f'FAIL {name}: within tolerance now ({how}); remove it from KNOWN_GAPS')
        bad += 1
        continue
    print(f'{"ok  " if ok else "FAIL"} {name}: RADIANCE {a:.5g}, daylit {b:.5g} ({how})')
    bad += not ok
print(f'{bad} failures')
sys.exit(1 if bad else 0)
