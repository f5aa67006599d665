package handlers

import (
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/turbinesim/turbinesim"
)

// serverPaths hides the server's own folders in text users read: error
// details, job details and solver logs. A deck error names the file the
// engineer wrote ("Main.fst:12: TMax: ..."); where a message was formed
// with the server-side path of that file (an extracted upload, a job's
// attempt folder, a stored tree), the path is cut to the file's name.
// This is the last line of defence: services report paths relative to
// the deck's root in the first place.
type serverPaths struct {
	roots   map[string]bool
	pattern *regexp.Regexp // nil: no folders
}

// newServerPaths matches every path under the given folders (and their
// resolved forms, since /tmp may be a link).
func newServerPaths(dirs []string) *serverPaths {
	seen := map[string]bool{}
	var roots []string
	add := func(d string) {
		if d == "" || !filepath.IsAbs(d) {
			return
		}
		d = filepath.ToSlash(filepath.Clean(d))
		if d == "/" || seen[d] {
			return
		}
		seen[d] = true
		roots = append(roots, d)
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			add(abs)
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				add(real)
			}
		}
	}
	if len(roots) == 0 {
		return &serverPaths{}
	}
	// Longest first, so a folder inside another is cut as a whole.
	sort.Slice(roots, func(i, j int) bool { return len(roots[i]) > len(roots[j]) })
	alts := make([]string, len(roots))
	for i, r := range roots {
		alts[i] = regexp.QuoteMeta(r)
	}
	return &serverPaths{roots: seen, pattern: regexp.MustCompile(`(?:` + strings.Join(alts, "|") + `)(?:/[^\s"'<>:;,()\[\]{}|]*)?`)}
}

// Hide replaces each server path in s by the name of the file it ends in
// ("a server folder" when it names a folder itself).
func (p *serverPaths) Hide(s string) string {
	if p == nil || p.pattern == nil || s == "" {
		return s
	}
	return p.pattern.ReplaceAllStringFunc(s, func(m string) string {
		m = strings.TrimRight(m, "/.")
		if p.roots[m] || m == "" {
			return "a server folder"
		}
		return path.Base(m)
	})
}

// hideInJob hides server paths in what a job shows its owner: the
// failure detail and the solver log.
func (s *Server) hideInJob(j *turbinesim.Job) *turbinesim.Job {
	if j == nil {
		return nil
	}
	if j.Detail != nil {
		j.Detail = new(s.paths.Hide(*j.Detail))
	}
	j.Log = s.paths.Hide(j.Log)
	return j
}

// hideInJobs is hideInJob over a list.
func (s *Server) hideInJobs(js []*turbinesim.Job) []*turbinesim.Job {
	for _, j := range js {
		s.hideInJob(j)
	}
	return js
}
