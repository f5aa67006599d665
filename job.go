package turbinesim

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// JobStatus is the state of a simulation job. The state machine is
//
//	queued ──► running ──► succeeded | failed
//	   │          │
//	   │          └──► cancelling ──► cancelled   (POST /jobs/{id}/cancel while running)
//	   └──► cancelled                             (POST /jobs/{id}/cancel before start)
//
// A running job whose worker dies goes back to running under a new attempt
// (attempt+1) on another worker; after MaxAttempts it fails.
type JobStatus string

const (
	JobQueued     JobStatus = "queued"
	JobRunning    JobStatus = "running"
	JobCancelling JobStatus = "cancelling"
	JobSucceeded  JobStatus = "succeeded"
	JobFailed     JobStatus = "failed"
	JobCancelled  JobStatus = "cancelled"
)

// JobStatuses lists every status, in state-machine order.
var JobStatuses = []JobStatus{JobQueued, JobRunning, JobCancelling, JobSucceeded, JobFailed, JobCancelled}

// Terminal reports whether s is final (no transition leaves it).
func (s JobStatus) Terminal() bool {
	return s == JobSucceeded || s == JobFailed || s == JobCancelled
}

// Valid reports whether s is one of JobStatuses.
func (s JobStatus) Valid() bool {
	for _, v := range JobStatuses {
		if s == v {
			return true
		}
	}
	return false
}

// Job is one simulation run of an organization.
type Job struct {
	ID             string    `json:"id" db:"id"`
	OrganizationID string    `json:"org_id" db:"organization_id"`
	Status         JobStatus `json:"status" db:"status"`
	TurbineID      *string   `json:"turbine_id" db:"turbine_id"`
	BatchID        *string   `json:"batch_id" db:"batch_id"`
	// Entrypoint is the slash-separated path of the main .fst inside the
	// job's input tree.
	Entrypoint string `json:"entrypoint" db:"entrypoint"`
	// SubmittedBy is the user; ClientID the API key's Client ID when the
	// job was submitted with a key.
	SubmittedBy *string `json:"submitted_by" db:"submitted_by"`
	ClientID    *string `json:"client_id" db:"client_id"`

	CreatedAt  time.Time  `json:"created_at" db:"created_at"`
	StartedAt  *time.Time `json:"started_at" db:"started_at"`
	FinishedAt *time.Time `json:"finished_at" db:"finished_at"`
	UpdatedAt  time.Time  `json:"updated_at" db:"updated_at"`

	// Progress: simulated time reached, end time, percent and the ETA the
	// solver extrapolates (seconds of wall time; nil when unknown).
	SimTime    float64  `json:"sim_time" db:"sim_time"`
	TMax       float64  `json:"t_max" db:"t_max"`
	Percent    float64  `json:"percent" db:"-"`
	ETASeconds *float64 `json:"eta_seconds" db:"eta_seconds"`

	Attempt     int `json:"attempt" db:"attempt"`
	MaxAttempts int `json:"max_attempts" db:"max_attempts"`
	// Detail says why a job failed or was cancelled.
	Detail *string `json:"detail" db:"detail"`

	// Name is what people call the run: given at submission, or derived
	// from what it runs (JobName). Tags are free labels of the
	// organization, changed with PATCH /jobs/{id}.
	Name string   `json:"name" db:"name"`
	Tags []string `json:"tags" db:"-"`
	// Setup says what the run simulates (wind, waves, time step), read
	// from the deck at submission; nil for jobs from before it was
	// recorded.
	Setup *RunSetup `json:"setup" db:"-"`
	// TurbineName, BatchName and SubmittedByEmail name the job's
	// references when it is read (empty when it has none, or they are
	// gone).
	TurbineName      string `json:"turbine_name,omitempty" db:"turbine_name"`
	BatchName        string `json:"batch_name,omitempty" db:"batch_name"`
	SubmittedByEmail string `json:"submitted_by_email,omitempty" db:"submitted_by_email"`

	// PriceCents is what the run was charged; Tokens what it consumed of
	// the token cap (RunWork.Tokens: steps × model size / WorkPerToken).
	// A run cancelled while running keeps the share of both that its
	// simulated time covers. Refunded is
	// set when the charge was returned (cancelled before start, or a
	// failure caused by the service).
	PriceCents int64      `json:"price_cents" db:"price_cents"`
	Tokens     int64      `json:"tokens" db:"tokens"`
	RefundedAt *time.Time `json:"refunded_at" db:"refunded_at"`

	// OutputFiles lists the published output files (succeeded jobs only).
	OutputFiles []string `json:"output_files" db:"-"`
	// Warnings are the submitted deck's (decks.Warnings), recorded with the
	// job: "file:line: variable: message" findings that OpenFAST would
	// run with, the file relative to the deck folder. Empty, not null,
	// when there were none.
	Warnings []string `json:"warnings" db:"-"`
	// Checks are the plausibility checks the finished run failed (the
	// solver's physical bounds of its outputs, RunCheck): empty when it
	// passed them all, nil when it was not checked (a run that did not
	// succeed, or one finished before runs were checked).
	Checks []RunCheck `json:"checks" db:"-"`

	InputKey  string  `json:"-" db:"input_key"`
	OutputKey *string `json:"-" db:"output_key"`
	Log       string  `json:"-" db:"log"`
}

// RunCheck is one plausibility check a finished run failed: its kind
// (non_finite, invalid_channel, overspeed, pitch_rate, yaw_rate,
// deflection, divergence), its severity, the output channel, the time
// and value where it failed and the bound it broke (nil where the kind has
// none), and a sentence saying so.
//
// Severity CheckError means the run's outputs are not physical (a value
// beyond a physical bound, a non-finite sample, divergence): the run is
// "flagged", and the batch analyses and the certification report leave it
// out of the design loads unless asked to include it. CheckWarning is a
// channel the deck asked for that has no values (OpenFAST's INVALID, e.g.
// a strain gage at a node the deck does not define): that channel is
// empty, the run's other loads stand.
type RunCheck struct {
	Kind     string   `json:"kind"`
	Severity string   `json:"severity"`
	Channel  string   `json:"channel"`
	Time     *float64 `json:"time"`
	Value    *float64 `json:"value"`
	Limit    *float64 `json:"limit"`
	Message  string   `json:"message"`
}

// Check severities (RunCheck.Severity).
const (
	CheckError   = "error"
	CheckWarning = "warning"
)

// RunFlagged reports whether checks hold a failed check of severity
// CheckError: the run's outputs are not physical.
func RunFlagged(checks []RunCheck) bool {
	for _, c := range checks {
		if c.Severity == CheckError {
			return true
		}
	}
	return false
}

// Flagged reports whether the run failed a plausibility check of
// severity CheckError.
func (j *Job) Flagged() bool { return RunFlagged(j.Checks) }

// SetPercent fills Percent from SimTime and TMax.
func (j *Job) SetPercent() {
	if j.TMax > 0 {
		j.Percent = math.Round(1000*min(j.SimTime/j.TMax, 1)) / 10
	}
	if j.Status == JobSucceeded {
		j.Percent = 100
	}
}

// JobPriceCents is the price of a run consuming tokens under plan p: a base
// fee per run plus a rate per 60 tokens, rounded up to the cent. Tokens
// come from the run's work (RunWork.Tokens: steps × model size); a token
// count beyond what RunWork.Tokens allows is refused, so the product
// never overflows.
func (p Plan) JobPriceCents(tokens int64) (int64, error) {
	if tokens < 0 || tokens > maxRunTokens*MaxBatchRuns {
		return 0, Errorf(EINVALID, "run price: %d tokens cannot be priced", tokens)
	}
	base, perMinute := int64(10), int64(30)
	switch p {
	case PlanPro:
		base, perMinute = 5, 20
	case PlanAcademic:
		base, perMinute = 5, 10
	case PlanEnterprise:
		base, perMinute = 2, 15
	}
	return base + (tokens*perMinute+59)/60, nil
}

// JobFilter selects a page of an organization's jobs. Empty fields do
// not filter.
type JobFilter struct {
	Status JobStatus
	// Name matches a substring of the job's name, case-insensitively.
	Name string
	// Tag keeps jobs carrying this tag.
	Tag       string
	TurbineID string
	BatchID   string
	// From and To bound the submission time: From <= created_at < To.
	From, To *time.Time
	// Sort is one of JobSorts ("" is "-created").
	Sort     string
	Page     int // 1-based
	PageSize int
}

// JobSorts are the orders of a job list: a field, descending with a
// leading "-".
var JobSorts = []string{"-created", "created", "name", "-name", "status", "-status", "turbine", "-turbine", "-price", "price"}

// ValidJobSort reports whether s is one of JobSorts or empty.
func ValidJobSort(s string) bool {
	if s == "" {
		return true
	}
	for _, v := range JobSorts {
		if s == v {
			return true
		}
	}
	return false
}

// RunSetup is what a run simulates, as the engineer states it: the wind
// at the hub, the waves of an offshore deck and the time step (t_max is
// the job's own field). Absent values were not set by the deck (or do
// not apply), never zero.
type RunSetup struct {
	DT    float64   `json:"dt,omitempty"`
	Wind  RunWind   `json:"wind"`
	Waves *RunWaves `json:"waves,omitempty"`
	// DLC, Seed and Yaw are those of a design-load-case batch run.
	DLC  string   `json:"dlc,omitempty"`
	Seed int      `json:"seed,omitempty"`
	Yaw  *float64 `json:"yaw,omitempty"`
	// Sweep holds the swept parameter values of a parametric batch run.
	Sweep map[string]float64 `json:"sweep,omitempty"`
	// Floating says the turbine stands on a floating platform
	// (hydrodynamics on, no fixed substructure, a platform degree of
	// freedom free). Such a run starts with the platform at rest at its
	// undisplaced position and settles far more slowly than the rotor
	// (surge period about 140 s on the IEA 15 MW VolturnUS-S), so its
	// default analysis window and its plausibility checks leave out a
	// longer start-up transient (docs/events.md §6).
	Floating bool `json:"floating,omitempty"`
	// Transient is a DLC run's start-up transient (s), its DLC's as the
	// batch stored it: the part of the run its analyses leave out.
	Transient *float64 `json:"transient,omitempty"`
}

// RunWind is the wind of a run. Kind is "steady" (power-law profile),
// "file" (a uniform wind file or a full-field box), "turbulent" (a box
// generated for the run) or "event" (an IEC gust or direction change).
type RunWind struct {
	Kind  string   `json:"kind"`
	Speed *float64 `json:"speed,omitempty"` // hub-height mean, m/s
	Shear *float64 `json:"shear,omitempty"` // power-law exponent
	// File is the wind file's name inside the run's input tree.
	File string `json:"file,omitempty"`
	// Turbulence describes a generated turbulent field, e.g. "NTM class 1B
	// (IEC Kaimal)"; Event an IEC event, e.g. "EOG".
	Turbulence string `json:"turbulence,omitempty"`
	Event      string `json:"event,omitempty"`
}

// RunWaves are the waves of an offshore run (SeaState or HydroDyn):
// Model names WaveMod; Hs and Tp are the significant height [m] and peak
// period [s] when the model uses them.
type RunWaves struct {
	Model     string   `json:"model"`
	Hs        *float64 `json:"hs,omitempty"`
	Tp        *float64 `json:"tp,omitempty"`
	Direction *float64 `json:"direction,omitempty"` // deg
}

// JobTagRules bound the tags of a job.
const (
	MaxJobTags      = 20
	MaxJobTagLength = 40
	MaxJobNameBytes = 200
)

// CleanJobTags trims, de-duplicates and checks tags (EINVALID naming
// field, the JSON name of the list, and the bad tag).
func CleanJobTags(field string, tags []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, t := range tags {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
			continue
		case utf8.RuneCountInString(t) > MaxJobTagLength:
			return nil, Errorf(EINVALID, "%s: tag %q is longer than %d characters", field, clip(t, 60), MaxJobTagLength)
		case strings.ContainsAny(t, ",\n\r\t") || !utf8.ValidString(t):
			return nil, Errorf(EINVALID, "%s: tag %q may not contain commas or line breaks", field, clip(t, 60))
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) > MaxJobTags {
		return nil, Errorf(EINVALID, "%s: at most %d tags per job (%d given)", field, MaxJobTags, len(out))
	}
	return out, nil
}

// CleanJobName trims and checks a run name (EINVALID naming field).
func CleanJobName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case len(name) > MaxJobNameBytes:
		return "", Errorf(EINVALID, "%s: at most %d bytes", field, MaxJobNameBytes)
	case !utf8.ValidString(name) || strings.ContainsAny(name, "\n\r"):
		return "", Errorf(EINVALID, "%s: one line of text", field)
	}
	return name, nil
}

// clip cuts s to at most n bytes (on a character boundary), marking the
// cut with an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n-len("…"), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ClipJobName cuts a derived run name to MaxJobNameBytes.
func ClipJobName(name string) string { return clip(name, MaxJobNameBytes) }

// JobName derives a run's name from what it runs: the turbine (or the
// main input file), the DLC, the wind and the seed, e.g.
// "NREL 5MW · DLC 1.2 · 12 m/s · seed 3" or "NREL 5MW · steady 8 m/s".
func JobName(turbine string, s *RunSetup) string {
	parts := []string{turbine}
	if s != nil {
		if s.DLC != "" {
			parts = append(parts, "DLC "+s.DLC)
		}
		for _, k := range sortedKeys(s.Sweep) {
			parts = append(parts, fmt.Sprintf("%s %s", k, strconv.FormatFloat(s.Sweep[k], 'g', 6, 64)))
		}
		w := s.Wind
		speed := ""
		if w.Speed != nil {
			speed = strconv.FormatFloat(*w.Speed, 'g', 6, 64) + " m/s"
		}
		switch {
		case len(s.Sweep) > 0 && s.Sweep["wind_speed"] != 0:
			// the sweep names the speed
		case w.Kind == "steady" && s.DLC == "":
			parts = append(parts, strings.TrimSpace("steady "+speed))
		case w.Kind == "file" && s.DLC == "":
			parts = append(parts, "wind file "+w.File)
		case w.Event != "":
			parts = append(parts, strings.TrimSpace(w.Event+" "+speed))
		case speed != "":
			parts = append(parts, speed)
		}
		if s.Yaw != nil && *s.Yaw != 0 {
			parts = append(parts, fmt.Sprintf("yaw %+g°", *s.Yaw))
		}
		if s.Seed > 0 {
			parts = append(parts, "seed "+strconv.Itoa(s.Seed))
		}
	}
	return ClipJobName(strings.Join(parts, " · "))
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// NewJob is a validated submission: the input tree (already checked) and
// the run's settings.
type NewJob struct {
	OrganizationID string
	SubmittedBy    string
	ClientID       string // empty unless submitted with an API key
	TurbineID      string // optional
	BatchID        string // optional
	// InputDir holds the deck; Entrypoint is the main .fst relative to it.
	InputDir   string
	Entrypoint string
	TMax       float64
	// Work is the run's work (DeckRunWork), which sets its tokens and
	// price.
	Work RunWork
	// Warnings are the deck's (LoadRunnableDeck), stored with the job.
	Warnings []string
	// Name is the run's name (JobName when the submission gave none);
	// Tags its labels (CleanJobTags); Setup what it simulates.
	Name  string
	Tags  []string
	Setup *RunSetup
	// IdempotencyKey and RequestHash make retried submissions safe: the
	// same key with the same hash returns the first job; another hash is
	// EINVALID; a submission still in progress under the key is ECONFLICT.
	IdempotencyKey string
	RequestHash    string
}

// JobUpdate is a change of a job's name and tags (PATCH /jobs/{id}).
type JobUpdate struct {
	Name       *string  `json:"name,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	AddTags    []string `json:"add_tags,omitempty"`
	RemoveTags []string `json:"remove_tags,omitempty"`
}

// JobService stores jobs, charges them and queues them.
type JobService interface {
	// SubmitJob stores the input tree, charges the organization (EPAYMENT
	// over a cap) and queues the job, all or nothing. replayed is true
	// when an idempotency key returned an earlier job.
	SubmitJob(ctx context.Context, nj *NewJob) (job *Job, replayed bool, err error)
	// FindJob returns one job of the organization (ENOTFOUND otherwise).
	FindJob(ctx context.Context, orgID, id string) (*Job, error)
	// ListJobs returns a page of the organization's jobs that pass the
	// filter, in its order (newest first by default), and the total count.
	ListJobs(ctx context.Context, orgID string, f JobFilter) ([]*Job, int, error)
	// UpdateJob renames a job and changes its tags: Name when not nil,
	// Tags replaced when not nil, then AddTags added and RemoveTags
	// removed.
	UpdateJob(ctx context.Context, orgID, id string, u JobUpdate) (*Job, error)
	// CancelJob cancels a queued job at once (refunded) or asks the worker
	// of a running job to stop (status cancelling). A finished job is
	// ECONFLICT.
	CancelJob(ctx context.Context, orgID, id string) (*Job, error)
	// OpenOutputs makes a succeeded job's output tree readable until
	// release (ENOTFOUND when the job has none).
	OpenOutputs(ctx context.Context, orgID, id string) (dir string, release func(), err error)
	// OpenInputs makes a job's input tree (the run as submitted) readable
	// until release: a later run of a stored turbine may take its wind
	// file from there.
	OpenInputs(ctx context.Context, orgID, id string) (dir string, release func(), err error)
}
