// Turbine pages: the ZIP upload's progress bar and main-.fst choice, and
// the JSON check of the blob editor as the person types. A file, not inline
// script, because the CSP allows only scripts from 'self'. The server
// checks everything again; these are conveniences.
(function () {
  "use strict";

  function byId(id) { return document.getElementById(id); }

  // ---- Upload progress (htmx:xhr:progress) --------------------------------

  // htmx relays progress of both the request body (xhr.upload) and the
  // response (xhr) under the same event name; the response only starts
  // once the body is sent, so the bar only ever moves forward.
  function setProgress(pct, text) {
    var bar = byId("upload-progress");
    if (!bar) return;
    if (pct >= bar.value) bar.value = pct;
    var label = byId("upload-progress-text");
    if (label) label.textContent = text || (Math.round(bar.value) + " %");
  }

  document.addEventListener("htmx:beforeSend", function (ev) {
    if (!ev.target || ev.target.id !== "upload-form") return;
    var row = byId("upload-progress-row");
    var bar = byId("upload-progress");
    if (!row || !bar) return;
    bar.value = 0;
    row.hidden = false;
    setProgress(0, "0 %");
  });

  document.addEventListener("htmx:xhr:progress", function (ev) {
    if (!ev.target || ev.target.id !== "upload-form") return;
    var d = ev.detail;
    if (!d || !d.lengthComputable || !d.total) return;
    var pct = 100 * d.loaded / d.total;
    setProgress(pct, pct >= 100 ? "Uploaded; checking the deck…" : null);
  });

  document.addEventListener("htmx:afterRequest", function (ev) {
    if (!ev.target || ev.target.id !== "upload-form" || !ev.detail) return;
    if (ev.detail.failed || ev.detail.successful === false) {
      setProgress(0, "The upload was refused; the form says why.");
    }
  });

  // ---- Which .fst? ---------------------------------------------------------

  // zipNames lists the entry names of a ZIP from its central directory
  // (PKWARE APPNOTE 4.3.12 and 4.3.16), reading only the file's tail and
  // the directory itself. It resolves to null when the file is not a plain
  // ZIP (ZIP64 or damaged): the server then decides and explains.
  function zipNames(file) {
    var tail = Math.min(file.size, 22 + 0xffff);
    return file.slice(file.size - tail).arrayBuffer().then(function (buf) {
      var v = new DataView(buf);
      for (var i = buf.byteLength - 22; i >= 0; i--) {
        if (v.getUint32(i, true) !== 0x06054b50) continue; // end of central directory
        var count = v.getUint16(i + 10, true);
        var size = v.getUint32(i + 12, true);
        var offset = v.getUint32(i + 16, true);
        if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff || offset + size > file.size) {
          return null;
        }
        return file.slice(offset, offset + size).arrayBuffer().then(function (cd) {
          return centralDirectoryNames(cd, count);
        });
      }
      return null;
    });
  }

  function centralDirectoryNames(buf, count) {
    var v = new DataView(buf);
    var dec = new TextDecoder();
    var names = [];
    var p = 0;
    for (var n = 0; n < count && p + 46 <= buf.byteLength; n++) {
      if (v.getUint32(p, true) !== 0x02014b50) return null; // file header signature
      var nameLen = v.getUint16(p + 28, true);
      var extraLen = v.getUint16(p + 30, true);
      var commentLen = v.getUint16(p + 32, true);
      if (p + 46 + nameLen > buf.byteLength) return null;
      names.push(dec.decode(new Uint8Array(buf, p + 46, nameLen)));
      p += 46 + nameLen + extraLen + commentLen;
    }
    return names;
  }

  // showChoice offers the .fst files of the archive in a select when there
  // are several; otherwise the free-text field stays (and is usually empty).
  function showChoice(fsts) {
    var choiceRow = byId("upload-fst-choice-row");
    var choice = byId("upload-fst-choice");
    var textRow = byId("upload-entrypoint-row");
    var text = byId("upload-entrypoint");
    if (!choiceRow || !choice || !textRow || !text) return;
    var several = fsts && fsts.length > 1;
    choice.replaceChildren();
    if (several) {
      var prompt = document.createElement("option");
      prompt.value = "";
      prompt.textContent = "Choose the main input file…";
      choice.appendChild(prompt);
      fsts.forEach(function (name) {
        var o = document.createElement("option");
        o.value = name;
        o.textContent = name;
        choice.appendChild(o);
      });
    }
    // Exactly one of the two fields is submitted as "entrypoint".
    choiceRow.hidden = !several;
    choice.disabled = !several;
    choice.required = several;
    textRow.hidden = several;
    text.disabled = several;
  }

  document.addEventListener("change", function (ev) {
    var input = ev.target;
    if (!input || input.id !== "upload-file") return;
    var file = input.files && input.files[0];
    if (!file) { showChoice(null); return; }
    zipNames(file).then(function (names) {
      if (!names) { showChoice(null); return; }
      showChoice(names.filter(function (n) {
        return /\.fst$/i.test(n) && n.slice(-1) !== "/";
      }).sort());
    }, function () { showChoice(null); });
  });

  // ---- JSON blobs ----------------------------------------------------------

  function checkBlob(area) {
    var out = byId("error-" + area.getAttribute("data-json-blob"));
    if (!out) return;
    var msg = "";
    if (area.value.trim() !== "") {
      try {
        var v = JSON.parse(area.value);
        if (v === null || typeof v !== "object" || Array.isArray(v)) msg = "must be a JSON object";
      } catch (e) {
        msg = "not valid JSON: " + e.message;
      }
    }
    out.textContent = msg;
    out.hidden = msg === "";
    if (msg) area.setAttribute("aria-invalid", "true"); else area.removeAttribute("aria-invalid");
  }

  document.addEventListener("input", function (ev) {
    if (ev.target && ev.target.matches && ev.target.matches("textarea[data-json-blob]")) checkBlob(ev.target);
  });
})();
