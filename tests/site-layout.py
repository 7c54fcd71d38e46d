# site-layout.py: the public pages in headless Chromium at a desktop and
# a phone width, driven over the DevTools protocol on a pipe (no network
# port, no package beyond Python's standard library).
#
# Usage: site-layout.py CHROMIUM ARTIFACTS BASE_URL NAME=PATH...
#
# For each page at 1280 and 390 px wide, prints PASS:/FAIL: lines (the
# format of tests/lib.sh) for:
#   - no horizontal overflow: the document is no wider than the window,
#     and no value cell (td.num, td[data-label]) reaches beyond it, even
#     inside a sideways-scrolling box;
#   - the headline (#headline, else the first chart or table, else the
#     title) starts within the first three quarters of the first screen;
#   - keyboard navigation: Tab moves the focus through the page's links
#     and controls (and boxes that scroll sideways, which Chromium lets
#     the keyboard scroll), each focused element drawn with an outline;
#   - contrast: every visible piece of text (HTML and SVG) against the
#     background it is drawn on is at least 4.5:1 (WCAG 2 AA).
# Screenshots go to ARTIFACTS/site-NAME-WIDTH.png.  The checks read the
# laid-out page with Runtime.evaluate, which DevTools runs outside the
# page's Content-Security-Policy: the pages themselves still run no
# script.
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

WIDTHS = ((1280, 900), (390, 844))
TABS = 12
MIN_TEXT_PX = 11

MEASURE = r"""
(() => {
  const W = window.innerWidth, H = window.innerHeight;
  const out = {width: W, docWidth: document.documentElement.scrollWidth};
  const cells = [...document.querySelectorAll('td.num, td[data-label]')];
  out.cells = cells.length;
  out.clipped = cells.filter(c => {
    const r = c.getBoundingClientRect();
    return r.width > 0 && (r.right > W + 1 || r.left < -1);
  }).slice(0, 5).map(c => c.textContent.trim().slice(0, 40));
  const head = document.querySelector('#headline') ||
               document.querySelector('main svg, main table') || document.querySelector('h1');
  out.headline = head ? head.getBoundingClientRect().top : null;
  out.height = H;
  return JSON.stringify(out);
})()
"""

# A JavaScript function, eachText(fn), for CONTRAST and FONTS: calls
# fn(node, its element, the element's computed style) for each text node
# of the page that holds text, is not in a title, option, script or style,
# and is laid out with a size and not hidden.
EACH_TEXT = r"""
  const eachText = fn => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const el = n.parentElement;
      if (el.closest('title, option, script, style')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const st = getComputedStyle(el);
      if (st.visibility === 'hidden' || st.display === 'none') continue;
      fn(n, el, st);
    }
  };
"""

CONTRAST = r"""
(() => {""" + EACH_TEXT + r"""
  const lum = c => {
    const m = c.match(/rgba?\(([^)]*)\)/);
    if (!m) return null;
    const p = m[1].split(',').map(Number);
    if (p.length === 4 && p[3] === 0) return null;
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(p[0]) + 0.7152 * f(p[1]) + 0.0722 * f(p[2]);
  };
  const background = el => {
    for (; el; el = el.parentElement) {
      const l = lum(getComputedStyle(el).backgroundColor);
      if (l !== null) return l;
    }
    return 1;
  };
  const bad = [];
  let checked = 0;
  eachText((n, el, st) => {
    const svg = el.closest('svg');
    const fg = lum(svg ? st.fill : st.color);
    if (fg === null) return;
    const bg = svg ? background(svg) : background(el);
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    checked++;
    if (ratio < 4.5)
      bad.push(n.textContent.trim().slice(0, 30) + ' ' + ratio.toFixed(2) + ':1');
  });
  return JSON.stringify({checked, bad: bad.slice(0, 5)});
})()
"""

# The smallest rendered text: each visible text's font size in CSS px,
# for SVG text its font size in the SVG's units times the scale the SVG
# is drawn at (its screen matrix), so a chart's 12-unit text drawn at a
# third of its width counts as 4 px.  Text clipped away (the stacked
# tables' header row on a phone, kept for screen readers) is not seen.
FONTS = r"""
(() => {""" + EACH_TEXT + r"""
  const clipped = el => {
    for (; el; el = el.parentElement) {
      const st = getComputedStyle(el);
      if (st.clip && st.clip !== 'auto') return true;
    }
    return false;
  };
  let smallest = null, where = '', checked = 0;
  eachText((n, el, st) => {
    if (clipped(el)) return;
    let size = parseFloat(st.fontSize);
    if (el.closest('svg')) {
      const m = el.getScreenCTM();
      size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    checked++;
    if (smallest === null || size < smallest) {
      smallest = size;
      where = n.textContent.trim().slice(0, 30);
    }
  });
  return JSON.stringify({checked, smallest, where});
})()
"""

FOCUS = r"""
(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return JSON.stringify(null);
  const st = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  return JSON.stringify({tag: el.tagName.toLowerCase() + (el.classList.contains('scroll') ? '.scroll' : ''),
                         text: (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30),
                         outline: st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0,
                         top: r.top + window.scrollY});
})()
"""


class Browser:
    """Chromium with --remote-debugging-pipe: commands on fd 3, replies on fd 4."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix='chromium.', dir=os.environ.get('TEST_TMP'))
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        os.set_inheritable(to_child_r, True)
        os.set_inheritable(from_child_w, True)

        def fds():
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        self.proc = subprocess.Popen(
            [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
             '--no-first-run', '--disable-background-networking', '--disable-component-update',
             '--disable-sync', '--hide-scrollbars', '--remote-debugging-pipe',
             '--user-data-dir=' + self.profile, 'about:blank'],
            preexec_fn=fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b''
        self.next_id = 0
        self.events = []

    def _read(self):
        while b'\0' not in self.buf:
            chunk = os.read(self.from_child, 65536)
            if not chunk:
                raise RuntimeError('chromium closed the pipe')
            self.buf += chunk
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_child, json.dumps(msg).encode() + b'\0')
        while True:
            reply = self._read()
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError(method + ': ' + reply['error'].get('message', ''))
                return reply.get('result', {})
            self.events.append(reply)

    def wait_event(self, method):
        while True:
            for i, e in enumerate(self.events):
                if e.get('method') == method:
                    del self.events[i]
                    return e
            self.events.append(self._read())

    def close(self):
        try:
            self.send('Browser.close')
        except (RuntimeError, OSError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def evaluate(b, session, expr):
    r = b.send('Runtime.evaluate', {'expression': expr, 'returnByValue': True}, session)
    return json.loads(r['result']['value'])


def report(ok, what, why=''):
    print(('PASS: ' if ok else 'FAIL: ') + what + ('' if ok or not why else ' (' + why + ')'))
    sys.stdout.flush()


COUNT_FOCUSABLE = r"""
document.querySelectorAll('a[href], input:not([type=hidden]), select, button').length
"""


def tab_through(b, session):
    """The elements focused by Tab, pressed TABS times or once per link and
    control when there are fewer."""
    seen = []
    count = b.send('Runtime.evaluate', {'expression': COUNT_FOCUSABLE, 'returnByValue': True},
                   session)['result']['value']
    for _ in range(min(TABS, count)):
        for kind in ('rawKeyDown', 'keyUp'):
            b.send('Input.dispatchKeyEvent', {'type': kind, 'key': 'Tab', 'code': 'Tab',
                                              'windowsVirtualKeyCode': 9}, session)
        seen.append(evaluate(b, session, FOCUS))
    return seen


def check_page(b, artifacts, base, name, path, width, height):
    target = b.send('Target.createTarget', {'url': 'about:blank'})['targetId']
    session = b.send('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
    b.send('Emulation.setDeviceMetricsOverride',
           {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': width < 600},
           session)
    b.send('Page.enable', {}, session)
    b.send('Page.navigate', {'url': base + path}, session)
    b.wait_event('Page.loadEventFired')
    where = '%s at %d px' % (name, width)

    shot = b.send('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True},
                  session)
    with open(os.path.join(artifacts, 'site-%s-%d.png' % (name, width)), 'wb') as f:
        f.write(base64.b64decode(shot['data']))

    m = evaluate(b, session, MEASURE)
    # A phone's browser widens its layout to content that does not fit
    # (innerWidth follows), so the page is held to the device's width.
    report(m['docWidth'] <= width and m['width'] <= width,
           where + ': the page is no wider than the window',
           'document %d px wide, laid out %d px wide' % (m['docWidth'], m['width']))
    report(not m['clipped'], where + ': all %d values lie within the window' % m['cells'],
           'beyond it: ' + ', '.join(m['clipped']))
    report(m['headline'] is not None and 0 <= m['headline'] < m['height'] * 0.75,
           where + ': the headline shows without scrolling',
           'at %s px of a %d px screen' % (m['headline'], m['height']))

    t = evaluate(b, session, FONTS)
    report(t['checked'] > 0 and t['smallest'] >= MIN_TEXT_PX - 0.05,
           where + ': no text is smaller than %d px (smallest %.1f px)'
           % (MIN_TEXT_PX, t['smallest'] or 0), '"%s"' % t['where'])

    c = evaluate(b, session, CONTRAST)
    report(c['checked'] > 0 and not c['bad'],
           where + ': all %d texts have contrast of at least 4.5:1' % c['checked'],
           ', '.join(c['bad']))

    focused = tab_through(b, session)
    kinds = [f['tag'] if f else 'nothing' for f in focused]
    report(len(kinds) > 0 and all(k in ('a', 'input', 'select', 'button', 'div.scroll')
                                  for k in kinds),
           where + ': Tab moves through %d links and controls' % len(kinds), ' '.join(kinds))
    report(all(f and f['outline'] for f in focused),
           where + ': each focused element is outlined',
           ', '.join(f['text'] for f in focused if f and not f['outline']))
    b.send('Target.closeTarget', {'targetId': target})


def main():
    chromium, artifacts, base = sys.argv[1:4]
    pages = [a.split('=', 1) for a in sys.argv[4:]]
    b = Browser(chromium)
    try:
        for name, path in pages:
            for width, height in WIDTHS:
                check_page(b, artifacts, base, name, path, width, height)
    finally:
        b.close()


if __name__ == '__main__':
    main()
