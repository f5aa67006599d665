// Copy buttons: <button data-copy-target="#id"> copies the text of #id to
// the clipboard. A file, not inline script, because the CSP allows only
// scripts from 'self'.
document.addEventListener("click", function (ev) {
  var btn = ev.target.closest("[data-copy-target]");
  if (!btn) return;
  var el = document.querySelector(btn.getAttribute("data-copy-target"));
  if (!el) return;
  var text = el.textContent.trim();
  var done = function () { btn.textContent = "Copied"; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done);
  } else {
    var r = document.createRange();
    r.selectNodeContents(el);
    var s = window.getSelection();
    s.removeAllRanges();
    s.addRange(r);
    document.execCommand("copy");
    done();
  }
});
