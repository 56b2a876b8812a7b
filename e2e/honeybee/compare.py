"""Compares a run's summary with the RADIANCE goldens: every result file present, the mean
of every file within 2 % (illuminance, irradiance, luminance, hours, daylight factor), and
annual metrics in percent of hours (DA, cDA, UDI, glare autonomy) within 2 points.
Usage: compare.py GOLDENS_JSON SUMMARY_JSON"""
import json
import sys

METRIC_EXT = ('.da', '.cda', '.udi', '.ga')
goldens, summary = (json.load(open(p)) for p in sys.argv[1:3])
bad = 0
for recipe, g in sorted(goldens.items()):
    s = summary.get(recipe)
    if s is None or s['failed']:
        print(f'FAIL {recipe}: did not run (see its log)')
        bad += 1
        continue
    for name, ref in sorted(g['files'].items()):
        got = s['files'].get(name)
        if got is None or got['n'] != ref['n']:
            print(f'FAIL {recipe} {name}: missing or wrong size ({got} vs {ref})')
            bad += 1
            continue
        a, b = ref['mean'], got['mean']
        if name.endswith(METRIC_EXT):
            ok, how = abs(b - a) <= 2.0, f'{b - a:+.2f} points'
        else:
            rel = (b - a) / a * 100 if a else (0.0 if b == a else float('inf'))
            ok, how = abs(rel) <= 2.0, f'{rel:+.2f} %'
        print(f'{"ok  " if ok else "FAIL"} {recipe} {name}: RADIANCE {a:.5g}, daylit {b:.5g} ({how})')
        bad += not ok
print(f'{bad} failures')
sys.exit(1 if bad else 0)
