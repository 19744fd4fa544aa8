// Progressive enhancement only: every page works without this file.
(function () {
  'use strict';

  var FINAL = { accepted: true, accepted_with_warnings: true, rejected: true, error: true };
  var POLL_MS = 3000;

  // Texts in the page's language, written by the server on <body> (the English ones only stand in if one is missing).
  function say(name, fallback) {
    return document.body.getAttribute('data-text-' + name) || fallback;
  }

  function announce(text) {
    var live = document.getElementById('live-status');
    if (live) live.textContent = text;
  }

  // Error summaries take focus so keyboard and screen-reader users land on what to fix.
  var summary = document.querySelector('.error-summary');
  if (summary) summary.focus();

  // Confirm dialogs for destructive or irreversible actions.
  document.addEventListener('submit', function (event) {
    var form = event.target;
    var question = form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // Filters fold away on a phone unless some apply; without the script they simply stay open.
  var filters = document.querySelector('details.filter-panel[data-fold-on-phone]');
  if (filters && window.matchMedia('(max-width: 48rem)').matches) filters.open = false;

  // Copy buttons: hidden in the HTML, shown only when the script can actually copy.
  Array.prototype.forEach.call(document.querySelectorAll('[data-copy-target]'), function (button) {
    var target = document.querySelector(button.getAttribute('data-copy-target'));
    if (!target) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = target.textContent.trim();
      var done = function () {
        var label = button.textContent;
        button.textContent = say('copied', 'Copied');
        announce(say('copied-announce', 'Copied to the clipboard'));
        window.setTimeout(function () {
          button.textContent = label;
        }, 2500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () {
          announce(say('copy-failed', 'Copy failed: select the text and copy it by hand'));
        });
      } else {
        var range = document.createRange();
        range.selectNodeContents(target);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        try {
          document.execCommand('copy');
          done();
        } catch {
          announce(say('copy-failed', 'Copy failed: select the text and copy it by hand'));
        }
      }
    });
  });

  // The invoice form's recipient check: the NIF and name are checked against the census as they are typed (once the
  // typing pauses); the answer is a line beside the fields and the form never waits for it.
  Array.prototype.forEach.call(document.querySelectorAll('[data-recipient-check]'), function (box) {
    var form = box.closest('form');
    var nif = box.querySelector('[name="recipient.nif"]');
    var name = box.querySelector('[name="recipient.name"]');
    // An EU VAT number (asked of VIES) when no NIF is typed: the new invoice form's, or IDOtro's with id_type 02.
    var vat = box.querySelector('[name="recipient.id"]');
    var idType = box.querySelector('[name="recipient.id_type"]');
    var out = box.querySelector('[data-recipient-check-output]');
    if (!form || !form.elements._csrf || !nif || !name || !out) return;
    var timer;
    var asked = 0;
    function show(result, text) {
      out.textContent = text;
      if (result) out.setAttribute('data-result', result);
      else out.removeAttribute('data-result');
    }
    function question() {
      if (nif.value.trim()) return name.value.trim() ? { nif: nif.value, name: name.value } : undefined;
      var euVat = vat && vat.value.trim() && (!idType || idType.value.trim() === '02');
      return euVat ? { vat_number: vat.value } : undefined;
    }
    function check() {
      var mine = ++asked;
      var asking = question();
      if (!asking) return show('', '');
      show('', box.getAttribute('data-text-checking') || 'Checking…');
      asking._csrf = form.elements._csrf.value;
      fetch(box.getAttribute('data-recipient-check'), {
        method: 'POST',
        body: new window.URLSearchParams(asking),
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      })
        .then(function (res) {
          return res.ok ? res.json() : { result: '', text: '' };
        })
        .then(function (answer) {
          if (mine === asked) show(answer.result, answer.text);
        })
        .catch(function () {
          if (mine === asked) show('', '');
        });
    }
    function later() {
      window.clearTimeout(timer);
      timer = window.setTimeout(check, 500);
    }
    [nif, name, vat, idType].forEach(function (input) {
      if (input) input.addEventListener('input', later);
    });
  });

  // A form that registers something is sent once: a second click while the first is on its way does nothing.
  Array.prototype.forEach.call(document.querySelectorAll('form[data-submit-once]'), function (form) {
    form.addEventListener('submit', function (event) {
      if (form.getAttribute('data-sent')) return event.preventDefault();
      form.setAttribute('data-sent', 'yes');
    });
  });

  // A list of tax IDs being checked: its progress follows the workers, and the page shows its results once done.
  var listProgress = document.querySelector('[data-list-progress-url]');
  function pollList() {
    var url = listProgress.getAttribute('data-list-progress-url');
    fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (res) {
        return res.ok ? res.json() : undefined;
      })
      .then(function (list) {
        if (list && list.status === 'done') return window.location.reload();
        if (list) {
          var bar = listProgress.querySelector('progress');
          var text = listProgress.querySelector('[data-testid="list-progress"]');
          if (bar) bar.value = list.answered;
          if (text) text.textContent = list.text;
        }
        window.setTimeout(pollList, 1000);
      })
      .catch(function () {
        window.setTimeout(pollList, 1000);
      });
  }
  if (listProgress && listProgress.getAttribute('data-list-progress-url')) window.setTimeout(pollList, 1000);

  // Status polling: badges marked data-invoice-id update in place until every shown invoice is final.
  var pollUrl = document.body.getAttribute('data-status-url');
  function pendingBadges() {
    return Array.prototype.filter.call(document.querySelectorAll('[data-invoice-id][data-status]'), function (el) {
      return !FINAL[el.getAttribute('data-status')];
    });
  }

  function apply(update) {
    Array.prototype.forEach.call(document.querySelectorAll('[data-invoice-id="' + update.id + '"][data-status]'), function (badge) {
      if (badge.getAttribute('data-status') === update.status) return;
      badge.setAttribute('data-status', update.status);
      badge.className = 'badge badge--' + update.status;
      badge.textContent = update.label;
      announce(say('invoice', 'Invoice') + ' ' + update.invoice_number + ': ' + update.label);
    });
    Array.prototype.forEach.call(document.querySelectorAll('[data-authority-for="' + update.id + '"]'), function (el) {
      var text = update.code !== null ? update.code + ': ' + (update.message || '') : update.message || '';
      if (text) el.textContent = text;
    });
    if (FINAL[update.status]) {
      Array.prototype.forEach.call(document.querySelectorAll('[data-refresh-hint="' + update.id + '"]'), function (el) {
        el.hidden = false;
      });
    }
  }

  function poll() {
    var badges = pendingBadges();
    if (!pollUrl || badges.length === 0) return;
    var ids = [];
    badges.forEach(function (b) {
      var id = b.getAttribute('data-invoice-id');
      if (ids.indexOf(id) < 0) ids.push(id);
    });
    fetch(pollUrl + '?ids=' + encodeURIComponent(ids.slice(0, 100).join(',')), {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    })
      .then(function (res) {
        return res.ok ? res.json() : { invoices: [] };
      })
      .then(function (body) {
        body.invoices.forEach(apply);
      })
      .catch(function () {
        /* a missed poll is retried on the next tick */
      })
      .then(function () {
        window.setTimeout(poll, POLL_MS);
      });
  }
  window.setTimeout(poll, POLL_MS);
})();
