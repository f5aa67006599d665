package results

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/outfile"
)

// Exports of a run's output: the selected channels over a window (every
// k-th sample), as a file for another tool: OpenFAST's text .out, CSV or a
// MATLAB Level 5 .mat (solver/outfile writes each).

// ExportFormats are the formats Export answers, by file extension.
var ExportFormats = []string{"out", "csv", "mat"}

// MaxExportValues bounds rows × channels of one export (160 MB of
// doubles); the error names the downsample_factor that fits.
const MaxExportValues = 20_000_000

// ExportRequest selects what to export.
type ExportRequest struct {
	Format           string
	Channels         []string // default: every channel not INVALID
	TStart, TEnd     *float64
	DownsampleFactor int // every k-th sample; default 1
}

// Export is the output of the job restricted to the request, ready for
// solver/outfile's writers, and the name to give the file.
func (a *ResultAnalysis) Export(ctx context.Context, orgID, jobID string, req ExportRequest) (*outfile.File, string, error) {
	known := false
	for _, f := range ExportFormats {
		known = known || f == req.Format
	}
	if !known {
		return nil, "", turbinesim.Errorf(turbinesim.EINVALID, "format: %q is not one of %s", req.Format, strings.Join(ExportFormats, ", "))
	}
	if req.DownsampleFactor == 0 {
		req.DownsampleFactor = 1
	}
	if req.DownsampleFactor < 1 {
		return nil, "", turbinesim.Errorf(turbinesim.EINVALID, "downsample_factor: must be at least 1")
	}
	out, err := a.Results.JobOutput(ctx, orgID, jobID)
	if err != nil {
		return nil, "", err
	}
	rec := out.Record
	names := req.Channels
	if len(names) == 0 {
		for i, n := range rec.Names {
			if !InvalidChannel(rec.Unit(i)) {
				names = append(names, n)
			}
		}
	} else if err := CheckChannels(rec, names); err != nil {
		return nil, "", err
	}
	w := analysis.NewWindow(req.TStart, req.TEnd)
	lo, hi, err := w.Range(rec.Time)
	if err != nil {
		return nil, "", invalidAnalysis(err)
	}
	k := req.DownsampleFactor
	rows := (hi - lo + k - 1) / k
	if rows*len(names) > MaxExportValues {
		need := ((hi-lo)*len(names) + MaxExportValues - 1) / MaxExportValues
		return nil, "", turbinesim.Errorf(turbinesim.EINVALID,
			"downsample_factor: %d channels × %d samples exceed %d values; use downsample_factor ≥ %d, fewer channels or a shorter window",
			len(names), hi-lo, MaxExportValues, need)
	}
	chans := make([]outfile.Channel, len(names))
	cols := make([][]float64, len(names))
	for i, n := range names {
		idx, _ := rec.Index(n)
		chans[i] = outfile.Channel{Name: n, Unit: rec.Unit(idx)}
		cols[i] = rec.Channels[idx]
	}
	f := outfile.NewFile(fmt.Sprintf("Exported by turbinesim from job %s (%s), t = %g to %g s, every %d. sample",
		out.JobID, path.Base(out.File), rec.Time[lo], rec.Time[hi-1], k), chans, rows)
	row := make([]float64, len(names))
	for r := lo; r < hi; r += k {
		for c := range cols {
			row[c] = cols[c][r]
		}
		if err := f.AppendRow(rec.Time[r], row); err != nil {
			return nil, "", fmt.Errorf("export: %w", err)
		}
	}
	base := strings.TrimSuffix(path.Base(out.File), path.Ext(out.File))
	return f, fmt.Sprintf("%s-%s-%gs-%gs.%s", base, out.JobID[:min(8, len(out.JobID))], rec.Time[lo], rec.Time[hi-1], req.Format), nil
}
