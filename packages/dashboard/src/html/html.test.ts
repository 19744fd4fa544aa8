import { escapeHtml, html, raw } from './html';

describe('html', () => {
  it('escapes interpolated text so user input cannot open a tag or leave an attribute', () => {
    const name = `<script>alert("x")</script>' onmouseover='y`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y</p>',
    );
  });

  it('keeps nested html fragments and raw markup as they are', () => {
    const item = (s: string) => html`<li>${s}</li>`;
    expect(html`<ul>${['a&b', 'c'].map(item)}</ul>${raw('<hr>')}`.value).toBe('<ul><li>a&amp;b</li><li>c</li></ul><hr>');
  });

  it('renders nothing for false, null and undefined but prints 0', () => {
    expect(html`[${false}${null}${undefined}${0}]`.value).toBe('[0]');
  });

  it('escapes the ampersand of an existing entity so text shows literally', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
