// Study editor and notes panel (issue 10). Loaded by the study pages; no
// inline scripts (CSP script-src 'self'). Every request sends the
// session's CSRF token in X-CSRF-Token.
(function () {
  "use strict";
  var root = document.getElementById("study-editor");
  var csrf = root ? root.dataset.csrf : (document.body.getAttribute("hx-headers") ? JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRF-Token"] : "");

  function api(method, url, body) {
    var headers = { "Accept": "application/json", "X-CSRF-Token": csrf };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(url, { method: method, headers: headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) }).then(function (r) {
      if (r.status === 204) return null;
      return r.json().then(function (j) {
        if (!r.ok) throw new Error(j.detail || ("HTTP " + r.status));
        return j;
      });
    });
  }
  function say(id, text, bad) {
    var el = document.getElementById(id);
    if (!el) return;
    el.textContent = text;
    el.className = "text-sm " + (bad ? "text-red-700" : "text-green-700");
  }
  // The checked values of a pick list (the study's links, picked by name).
  function picked(kind) {
    return Array.prototype.map.call(document.querySelectorAll("input.pick-" + kind + ":checked"), function (el) { return el.value; });
  }
  // Filter boxes: hide list entries and options whose text lacks the query.
  // A query typed before this script ran (the page still loading) is
  // applied at once, as a later keystroke would.
  Array.prototype.forEach.call(document.querySelectorAll("[data-filter-list], [data-filter-select]"), function (box) {
    function apply() {
      var q = box.value.trim().toLowerCase();
      var target = document.getElementById(box.dataset.filterList || box.dataset.filterSelect);
      Array.prototype.forEach.call(target.querySelectorAll("[data-search]"), function (el) {
        el.hidden = q !== "" && el.dataset.search.indexOf(q) < 0;
      });
    }
    box.addEventListener("input", apply);
    if (box.value !== "") apply();
  });

  if (root) {
    var studyID = root.dataset.studyId;
    var base = "/studies/" + studyID;

    document.getElementById("edit-save").addEventListener("click", function () {
      var turbine = document.getElementById("edit-turbine").value.trim();
      api("PUT", base, {
        title: document.getElementById("edit-title").value,
        description: document.getElementById("edit-description").value,
        turbine_id: turbine === "" ? null : turbine,
        job_ids: picked("jobs"),
        batch_ids: picked("batches")
      }).then(function (st) {
        document.getElementById("study-heading").textContent = st.title;
        say("edit-status", "Saved.");
      }, function (e) { say("edit-status", e.message, true); });
    });

    // Upload with a progress bar: XMLHttpRequest reports upload progress,
    // fetch does not.
    document.getElementById("artifact-upload").addEventListener("click", function () {
      var input = document.getElementById("artifact-file");
      var file = input.files[0];
      if (!file) { say("artifact-status", "Choose a file first.", true); return; }
      if (file.size > Number(root.dataset.maxBytes)) { say("artifact-status", "The file is larger than the limit.", true); return; }
      var form = new FormData();
      form.append("file", file, file.name);
      var bar = document.getElementById("artifact-progress");
      bar.classList.remove("hidden");
      bar.value = 0;
      var xhr = new XMLHttpRequest();
      xhr.open("POST", base + "/artifacts");
      xhr.setRequestHeader("Accept", "application/json");
      xhr.setRequestHeader("X-CSRF-Token", csrf);
      xhr.upload.onprogress = function (ev) {
        if (ev.lengthComputable) bar.value = Math.round(100 * ev.loaded / ev.total);
      };
      xhr.onload = function () {
        var j = {};
        try { j = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
        if (xhr.status !== 201) { say("artifact-status", j.detail || ("HTTP " + xhr.status), true); return; }
        bar.value = 100;
        say("artifact-status", "Uploaded " + j.name + ".");
        addArtifactRow(j);
        input.value = "";
      };
      xhr.onerror = function () { say("artifact-status", "Upload failed.", true); };
      xhr.send(form);
    });

    function addArtifactRow(a) {
      var li = document.createElement("li");
      li.className = "flex items-center justify-between py-2";
      li.dataset.artifactId = a.id;
      var link = document.createElement("a");
      link.className = "artifact-download text-sky-700 underline";
      link.href = base + "/artifacts/" + a.id + "/download";
      link.textContent = a.name;
      var del = document.createElement("button");
      del.type = "button";
      del.className = "artifact-delete ml-3 text-red-700 underline";
      del.dataset.artifactId = a.id;
      del.textContent = "delete";
      li.appendChild(link);
      li.appendChild(del);
      document.getElementById("artifact-list").appendChild(li);
    }

    document.getElementById("artifact-list").addEventListener("click", function (ev) {
      var t = ev.target;
      if (!t.classList.contains("artifact-delete")) return;
      api("DELETE", base + "/artifacts/" + t.dataset.artifactId).then(function () {
        var li = t.closest("li");
        if (li) li.remove();
      }, function (e) { say("artifact-status", e.message, true); });
    });

    // sharing shows Enable while sharing is off, Rotate and Disable while a
    // link exists.
    function sharing(on) {
      ["share-rotate", "share-disable"].forEach(function (id) {
        var b = document.getElementById(id);
        if (b) b.classList.toggle("hidden", !on);
      });
      var enable = document.getElementById("share-enable");
      if (enable) enable.classList.toggle("hidden", on);
    }
    function showLink(l) {
      sharing(true);
      document.getElementById("share-result").classList.remove("hidden");
      document.getElementById("share-url").value = l.url;
      document.getElementById("share-qr").src = l.qr_code;
      document.getElementById("share-state").textContent = "Sharing is on. Copy the link now: it is shown only once.";
    }
    function shareButton(id, method, url) {
      var b = document.getElementById(id);
      if (!b) return;
      b.addEventListener("click", function () {
        api(method, url).then(function (l) {
          if (l) { showLink(l); return; }
          sharing(false);
          document.getElementById("share-result").classList.add("hidden");
          document.getElementById("share-url").value = "";
          document.getElementById("share-state").textContent = "Sharing is off.";
        }, function (e) { document.getElementById("share-state").textContent = e.message; });
      });
    }
    shareButton("share-enable", "POST", base + "/share");
    shareButton("share-rotate", "POST", base + "/share/rotate");
    shareButton("share-disable", "DELETE", base + "/share");
    document.getElementById("share-copy").addEventListener("click", function () {
      var url = document.getElementById("share-url");
      url.select();
      if (navigator.clipboard) {
        navigator.clipboard.writeText(url.value).catch(function () { document.execCommand("copy"); });
      } else {
        document.execCommand("copy");
      }
    });

    var delStudy = document.getElementById("study-delete");
    if (delStudy) {
      delStudy.addEventListener("click", function () {
        if (!window.confirm("Delete this study and its artifacts?")) return;
        api("DELETE", base).then(function () { window.location = "/studies"; },
          function (e) { say("edit-status", e.message, true); });
      });
    }
  }

  // Notes panel: any page that includes views.NotesPanel and this script.
  var panel = document.getElementById("notes-panel");
  if (panel) {
    var target = "target_type=" + encodeURIComponent(panel.dataset.targetType) + "&target_id=" + encodeURIComponent(panel.dataset.targetId);
    var list = document.getElementById("notes-list");
    function renderNote(n) {
      var li = document.createElement("li");
      li.className = "py-2";
      li.dataset.noteId = n.id;
      var meta = document.createElement("div");
      meta.className = "text-xs text-slate-500";
      meta.textContent = n.author_name + " · " + (n.visibility === "private" ? "private" : "organization") + " · " + n.updated_at.substring(0, 16).replace("T", " ");
      var body = document.createElement("div");
      body.className = "whitespace-pre-line";
      body.textContent = n.body;
      li.appendChild(meta);
      li.appendChild(body);
      if (n.mine) {
        var del = document.createElement("button");
        del.type = "button";
        del.className = "note-delete text-xs text-red-700 underline";
        del.textContent = "delete";
        del.dataset.noteId = n.id;
        li.appendChild(del);
      }
      list.appendChild(li);
    }
    function loadNotes() {
      api("GET", "/notes?" + target).then(function (page) {
        list.textContent = "";
        page.items.forEach(renderNote);
      }, function (e) { say("note-status", e.message, true); });
    }
    document.getElementById("note-add").addEventListener("click", function () {
      api("POST", "/notes", {
        target_type: panel.dataset.targetType, target_id: panel.dataset.targetId,
        body: document.getElementById("note-body").value,
        visibility: document.getElementById("note-shared").checked ? "organization" : "private"
      }).then(function (n) {
        document.getElementById("note-body").value = "";
        renderNote(n);
        say("note-status", "Added.");
      }, function (e) { say("note-status", e.message, true); });
    });
    list.addEventListener("click", function (ev) {
      var t = ev.target;
      if (!t.classList.contains("note-delete")) return;
      api("DELETE", "/notes/" + t.dataset.noteId).then(function () {
        var li = t.closest("li");
        if (li) li.remove();
      }, function (e) { say("note-status", e.message, true); });
    });
    loadNotes();
  }
})();
