// Package jobs submits simulation jobs: it builds a job's input tree (an
// uploaded ZIP of input files, or a stored turbine's deck with run settings
// and an optional wind file), checks the deck before anything is charged,
// and hashes the request for Idempotency-Key replays. The job row, its
// charge and its queue entry are the JobService's (package db).
package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
)

// MaxIdempotencyKey bounds the Idempotency-Key header.
const MaxIdempotencyKey = 255

// Submissions turns a POST /jobs request into a queued job.
type Submissions struct {
	Jobs turbinesim.JobService
	// Turbines reads the stored decks of runs of stored turbines; nil
	// makes those runs ErrNoTurbines.
	Turbines turbinesim.TurbineService
	// ScratchDir holds each request's input tree until the job service
	// has stored it; empty means the system's temporary directory.
	ScratchDir string
}

// Archive is an uploaded ZIP of a job's input files and the main .fst
// inside it.
type Archive struct {
	File       io.ReaderAt
	Size       int64
	Entrypoint string
	// Name and Tags are the run's (optional; a name is derived from the
	// deck when empty).
	Name string
	Tags []string
}

// UploadedWind is a wind file uploaded with a run of a stored turbine.
type UploadedWind struct {
	File io.Reader
	// Name is the file name the client gave; its extension says the
	// wind file's format.
	Name string
}

// ErrNoTurbines is returned for a run of a stored turbine when the
// service has no turbine store (501, as every route of an absent service).
var ErrNoTurbines = turbinesim.Errorf(turbinesim.ENOTIMPLEMENTED, "not implemented yet")

func (s *Submissions) newJob(a *turbinesim.Auth, idem, dir string) *turbinesim.NewJob {
	nj := &turbinesim.NewJob{OrganizationID: a.Organization.ID, SubmittedBy: a.User.ID, InputDir: dir, IdempotencyKey: idem}
	if a.Method == turbinesim.AuthAPIKey {
		nj.ClientID = a.ClientID
	}
	return nj
}

// SubmitArchive submits a job of the uploaded input files: the archive is
// extracted within the job limits, the entrypoint checked and the deck
// validated (EINVALID naming file and line) before the job service
// charges and queues it. replayed reports an Idempotency-Key replay of an
// earlier identical request.
func (s *Submissions) SubmitArchive(ctx context.Context, a *turbinesim.Auth, idem string, z Archive) (job *turbinesim.Job, replayed bool, err error) {
	dir, err := os.MkdirTemp(s.ScratchDir, "job-input-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	nj := s.newJob(a, idem, dir)
	nj.Entrypoint = z.Entrypoint
	if nj.Name, err = turbinesim.CleanJobName("name", z.Name); err != nil {
		return nil, false, err
	}
	if nj.Tags, err = turbinesim.CleanJobTags("tags", z.Tags); err != nil {
		return nil, false, err
	}
	if err := decks.ExtractZip(z.File, z.Size, dir, jobZipLimits); err != nil {
		return nil, false, err
	}
	if err := checkEntrypoint(dir, nj.Entrypoint); err != nil {
		return nil, false, err
	}
	d, warnings, err := decks.LoadRunnableDeck(dir, nj.Entrypoint)
	if err != nil {
		return nil, false, err
	}
	// The same run bounds as a JSON run, named by file, line and option;
	// priced by the deck's work.
	work, err := decks.DeckRunWork(dir, d)
	if err != nil {
		return nil, false, err
	}
	nj.TMax, nj.Warnings, nj.Work = d.Main.TMax, warnings, work
	nj.Setup = decks.RunSetupOf(d)
	if nj.Name == "" {
		nj.Name = turbinesim.JobName(path.Base(nj.Entrypoint), nj.Setup)
	}
	hash := sha256.New()
	hash.Write([]byte("zip\x00" + nj.Entrypoint + "\x00" + nj.Name + "\x00" + strings.Join(nj.Tags, ",") + "\x00"))
	io.Copy(hash, io.NewSectionReader(z.File, 0, z.Size))
	nj.RequestHash = hex.EncodeToString(hash.Sum(nil))
	return s.Jobs.SubmitJob(ctx, nj)
}

// SubmitTurbineRun submits a run of a stored turbine: its deck with the
// run settings of req, and with wind (when not nil, an uploaded wind
// file) or the wind req names. The run deck is written and validated
// before the job service charges and queues it.
func (s *Submissions) SubmitTurbineRun(ctx context.Context, a *turbinesim.Auth, idem string, req *TurbineRunRequest, wind *UploadedWind) (job *turbinesim.Job, replayed bool, err error) {
	dir, err := os.MkdirTemp(s.ScratchDir, "job-input-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	nj := s.newJob(a, idem, dir)
	hash := sha256.New()
	if wind != nil {
		windPath := filepath.Join(dir, "upload.wind")
		sum, err := saveUpload(wind.File, windPath)
		if err != nil {
			return nil, false, err
		}
		if err := req.Check(true); err != nil {
			return nil, false, err
		}
		w, err := decks.CheckRunWindFile("wind_file", windPath, wind.Name, req.Settings.TMax)
		if err != nil {
			return nil, false, err
		}
		if err := s.turbineRun(ctx, a, req, w, filepath.Join(dir, "run"), nj); err != nil {
			return nil, false, err
		}
		canon, _ := json.Marshal(req)
		hash.Write([]byte("turbine+wind\x00" + wind.Name + "\x00" + sum + "\x00"))
		hash.Write(canon)
	} else {
		if err := req.Check(false); err != nil {
			return nil, false, err
		}
		var w *decks.RunWindFile
		if ref := req.Settings.Wind.File; ref != nil {
			// The wind file of an earlier job of the organization.
			src, release, err := s.Jobs.OpenInputs(ctx, a.Organization.ID, ref.JobID)
			if turbinesim.ErrorCode(err) == turbinesim.ENOTFOUND {
				return nil, false, invalid("settings.wind.file.job_id: no job %q in this organization", clipText(ref.JobID, 100))
			} else if err != nil {
				return nil, false, err
			}
			defer release()
			p := filepath.Join(src, filepath.FromSlash(ref.Path))
			if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
				return nil, false, invalid("settings.wind.file.path: %q is not a file of job %s's inputs", clipText(ref.Path, 100), ref.JobID)
			}
			if w, err = decks.CheckRunWindFile("settings.wind.file.path", p, path.Base(ref.Path), req.Settings.TMax); err != nil {
				return nil, false, err
			}
		}
		if err := s.turbineRun(ctx, a, req, w, dir, nj); err != nil {
			return nil, false, err
		}
		canon, _ := json.Marshal(req)
		hash.Write([]byte("turbine\x00"))
		hash.Write(canon)
	}
	nj.RequestHash = hex.EncodeToString(hash.Sum(nil))
	return s.Jobs.SubmitJob(ctx, nj)
}

// turbineRun fills nj with a run of the stored turbine req names: its deck
// with the run settings (and wind file) written into dir.
func (s *Submissions) turbineRun(ctx context.Context, a *turbinesim.Auth, req *TurbineRunRequest, wind *decks.RunWindFile, dir string, nj *turbinesim.NewJob) error {
	if s.Turbines == nil {
		return ErrNoTurbines
	}
	// The stored files stay in place until release (an edit that would
	// remove them waits), which comes once the run deck is written.
	t, src, release, err := s.Turbines.OpenTurbineDeck(ctx, a.Organization.ID, req.TurbineID)
	if err != nil {
		return err
	}
	defer release()
	entry, warnings, work, setup, err := deckFromTurbine(src, t, req, wind, dir)
	if err != nil {
		return err
	}
	nj.InputDir, nj.Entrypoint, nj.TurbineID, nj.TMax, nj.Warnings, nj.Work = dir, entry, t.ID, req.Settings.TMax, warnings, work
	nj.Setup, nj.Name, nj.Tags = setup, req.Name, req.Tags
	if nj.Name == "" {
		nj.Name = turbinesim.JobName(t.Name, setup)
	}
	return nil
}

// saveUpload writes an uploaded file to path and returns its SHA-256.
func saveUpload(f io.Reader, path string) (string, error) {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(out, h), f); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
