# dom-inert.py DOM: whether the DOM that Chromium dumped (--dump-dom) of a
# page carrying hostile strings (report-hostile.py, the server's hostile
# results) has no element or event handler they could have made: no
# script, img or i element, one h1, no on* attribute.  For the page tests
# (t0700, t0810); fails with the offending elements named.
import sys
from html.parser import HTMLParser

tags = []


class P(HTMLParser):
    def handle_starttag(self, t, a):
        tags.append((t, a))


P().feed(open(sys.argv[1]).read())
names = [t for t, a in tags]
assert 'script' not in names and 'img' not in names and 'i' not in names, names
assert names.count('h1') == 1, names.count('h1')
assert not any(k.startswith('on') for t, a in tags for k, v in a), \
    [(t, k) for t, a in tags for k, v in a if k.startswith('on')]
