package handlers

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/labstack/echo/v4"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/solver/analysis"
	"github.com/turbinesim/turbinesim/solver/dlc"
	"github.com/turbinesim/turbinesim/views"
)

// Certification report of a finished DLC batch (issue 11 item 5):
// GET /reports/batches/{id} (verified accounts only) as an HTML page, or
// as a PDF of the same page with ?format=pdf or Accept: application/pdf,
// printed by headless Chromium. The page is self-contained (inline CSS,
// inline SVG, no scripts), so printing needs no session and no network.

// reportSensors are the load sensors the report looks for (analysis brief
// §5.6), in report order; those the runs did not record are left out.
func reportSensorList() []string {
	return []string{
		"RootMxc1", "RootMyc1", "RootMzc1", "RootFxc1", "RootFyc1", "RootFzc1",
		"RootMxb1", "RootMyb1", "RootMzb1",
		"LSShftFxa", "LSSTipMya", "LSSTipMza", "LSSTipMys", "LSSTipMzs", "RotThrust", "RotTorq",
		"YawBrFxp", "YawBrFyp", "YawBrFzp", "YawBrMxp", "YawBrMyp", "YawBrMzp",
		"TwrBsFxt", "TwrBsFyt", "TwrBsFzt", "TwrBsMxt", "TwrBsMyt", "TwrBsMzt",
		"TipDxc1", "GenPwr", "RotSpeed", "GenSpeed", "BldPitch1",
	}
}

// reportExponents are the Wöhler exponents of the fatigue table: welded
// steel (3, 5 beyond the knee), steel details and shafts (4), composite
// blades (10) (analysis brief §4.4).
func reportExponents() []float64 { return []float64{3, 4, 5, 10} }

func reportSensors(rec *analysis.Record) []string {
	var out []string
	for _, s := range reportSensorList() {
		if _, err := rec.Index(s); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// sensorLocations groups sensors by load location in report order: blade
// root, shaft and rotor, yaw bearing, tower base, and the rest (deflection
// and operational channels).
func sensorLocations(sensors []string) [][]string {
	prefixes := []string{"Root", "LSS", "YawBr", "TwrBs"}
	var order []string
	groups := map[string][]string{}
	for _, s := range sensors {
		loc := "other"
		for _, p := range prefixes {
			if strings.HasPrefix(s, p) {
				loc = p
			}
		}
		if s == "RotThrust" || s == "RotTorq" {
			loc = "LSS"
		}
		if _, ok := groups[loc]; !ok {
			order = append(order, loc)
		}
		groups[loc] = append(groups[loc], s)
	}
	out := make([][]string, len(order))
	for i, loc := range order {
		out[i] = groups[loc]
	}
	return out
}

// buildReport gathers everything the report shows.
func (s *Server) buildReport(ctx context.Context, orgID, batchID string) (*views.Report, error) {
	if s.svc.Batches == nil || s.svc.Results == nil {
		return nil, notImplemented
	}
	b, err := s.svc.Batches.FindBatch(ctx, orgID, batchID)
	if err != nil {
		return nil, err
	}
	if b.Kind != turbinesim.BatchDLC {
		return nil, turbinesim.Errorf(turbinesim.EINVALID, "the certification report is for DLC batches; this one is %s", b.Kind)
	}
	if !b.Progress.Finished() {
		return nil, turbinesim.Errorf(turbinesim.ECONFLICT, "the batch is not finished: %d of %d runs done", b.Progress.Done, b.Progress.Total)
	}
	var stored storedDLCRequest
	if err := json.Unmarshal(b.Request, &stored); err != nil {
		return nil, fmt.Errorf("reading the batch request: %w", err)
	}
	jobs, err := s.svc.Batches.BatchJobs(ctx, orgID, b.ID)
	if err != nil {
		return nil, err
	}
	outputs, err := s.svc.Results.BatchRuns(ctx, orgID, b.ID)
	if err != nil {
		return nil, err
	}
	byJob := map[string]*turbinesim.JobOutput{}
	for _, o := range outputs {
		if o.Output != nil {
			byJob[o.JobID] = o.Output
		}
	}
	runByName := map[string]dlc.Run{}
	for _, r := range stored.Runs {
		runByName[r.ID] = r
	}
	rep := &views.Report{Batch: b, Request: stored.Request, Basis: dlc.LoadBasisTable(stored.Runs), Exponents: reportExponents(),
		Generated: time.Now().UTC()}
	if t, err := s.svc.Turbines.FindTurbine(ctx, orgID, derefOr(b.TurbineID, "")); err == nil {
		rep.Turbine = t
	}
	type usable struct {
		run dlc.Run
		out *turbinesim.JobOutput
	}
	var ok []usable
	for _, j := range jobs {
		run := runByName[j.Run]
		o := byJob[j.Job.ID]
		if j.Job.Status != turbinesim.JobSucceeded || o == nil {
			fr := views.FailedRun{Run: j.Run, JobID: j.Job.ID, Status: string(j.Job.Status)}
			if j.Job.Detail != nil {
				fr.Detail = *j.Job.Detail
			}
			rep.Failed = append(rep.Failed, fr)
			continue
		}
		ok = append(ok, usable{run, o})
	}
	rep.Succeeded = len(ok)
	if len(ok) == 0 {
		return rep, nil
	}
	sensors := reportSensors(ok[0].out.Record)
	rep.Sensors = sensors

	// Extreme loads: ultimate DLCs, or every run when the batch has none
	// (then with the runs' own γ_f).
	gammas := map[string]float64{}
	var ext []analysis.ExtremeRun
	for _, u := range ok {
		if u.run.Analysis == dlc.Ultimate {
			ext = append(ext, analysis.ExtremeRun{ID: u.run.ID, DLC: u.run.DLC, Record: u.out.Record, Window: analysis.After(u.run.Transient)})
			gammas[u.run.DLC] = u.run.Gamma
		}
	}
	if len(ext) == 0 {
		rep.ExtremesFromAll = true
		for _, u := range ok {
			ext = append(ext, analysis.ExtremeRun{ID: u.run.ID, DLC: u.run.DLC, Record: u.out.Record, Window: analysis.After(u.run.Transient)})
			gammas[u.run.DLC] = max(u.run.Gamma, 1)
		}
	}
	// Concurrent values are the other components at the same location
	// (a certification load table's layout, analysis brief §5.7).
	for _, group := range sensorLocations(sensors) {
		ex, err := analysis.Extremes(ext, analysis.ExtremeOptions{Channels: group, Concurrent: group, SafetyFactors: gammas})
		if err != nil {
			rep.Problems = append(rep.Problems, "extreme loads: "+err.Error())
			break
		}
		rep.Extremes = append(rep.Extremes, ex...)
	}

	// Fatigue: each fatigue DLC separately, lifetime DELs with the class's
	// Rayleigh distribution (the m-power mean, analysis brief §4.4).
	dist, derr := analysis.RayleighForClass(stored.Request.Class)
	if derr != nil {
		rep.Problems = append(rep.Problems, "wind distribution: "+derr.Error())
	}
	fatigue := map[string][]analysis.FatigueInput{}
	var fatigueOrder []string
	for _, u := range ok {
		if u.run.Analysis != dlc.Fatigue {
			continue
		}
		if _, seen := fatigue[u.run.DLC]; !seen {
			fatigueOrder = append(fatigueOrder, u.run.DLC)
		}
		fatigue[u.run.DLC] = append(fatigue[u.run.DLC], analysis.FatigueInput{ID: u.run.ID, WindSpeed: u.run.WindSpeed,
			Record: u.out.Record, Window: analysis.After(u.run.Transient)})
	}
	for _, id := range fatigueOrder {
		if derr != nil || len(sensors) == 0 {
			break
		}
		res, err := analysis.BatchDEL(fatigue[id], sensors, analysis.DELOptions{Exponents: reportExponents()}, dist)
		if err != nil {
			rep.Problems = append(rep.Problems, "fatigue DLC "+id+": "+err.Error())
			continue
		}
		rep.Fatigue = append(rep.Fatigue, views.FatigueTable{DLC: id, Runs: len(fatigue[id]), Channels: res})
	}

	// Power curve and AEP from the power-production runs, binned on the
	// batch's own wind-speed grid.
	var points []analysis.CurvePoint
	for _, u := range ok {
		if u.run.State != dlc.PowerProduction {
			continue
		}
		p, err := analysis.RunCurvePoint(u.out.Record, analysis.After(u.run.Transient), turbinesim.CurveChannels(u.out.Record, ""))
		if err != nil {
			rep.Problems = append(rep.Problems, "power curve, run "+u.run.ID+": "+err.Error())
			continue
		}
		points = append(points, p)
	}
	if len(points) > 0 {
		cv, err := analysis.PowerCurve(points, analysis.CurveOptions{Binning: analysis.BinGrid, RotorRadius: stored.Request.Turbine.RotorDiameter / 2})
		if err != nil {
			rep.Problems = append(rep.Problems, "power curve: "+err.Error())
		} else {
			rep.Curve = &cv
			if derr == nil {
				if aep, err := analysis.AnnualEnergy(cv.Bins, dist); err == nil {
					rep.AEP = &aep
					rep.MeanWind = dist.MeanSpeed
				} else {
					rep.Problems = append(rep.Problems, "AEP: "+err.Error())
				}
			}
		}
	}
	return rep, nil
}

func derefOr(p *string, d string) string {
	if p == nil {
		return d
	}
	return *p
}

// wantsPDF: ?format=pdf or an Accept header naming application/pdf.
func wantsPDF(c echo.Context) bool {
	return c.QueryParam("format") == "pdf" || strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "application/pdf")
}

// batchReport: GET /reports/batches/{id}.
func (s *Server) batchReport(c echo.Context) error {
	ctx := c.Request().Context()
	rep, err := s.buildReport(ctx, authFrom(c).Organization.ID, c.Param("id"))
	if err != nil {
		return err
	}
	var html bytes.Buffer
	if err := views.ReportPage(rep).Render(ctx, &html); err != nil {
		return err
	}
	if !wantsPDF(c) {
		return c.HTMLBlob(http.StatusOK, html.Bytes())
	}
	pdf, err := printPDF(ctx, html.String())
	if err != nil {
		return turbinesim.Errorf(turbinesim.EUNAVAILABLE, "the PDF could not be printed: %v", err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="report-%s.pdf"`, rep.Batch.ID))
	return c.Blob(http.StatusOK, "application/pdf", pdf)
}

// chromium finds the browser: /usr/bin/chromium (Debian's package) or
// whatever of the usual names is on PATH.
func chromium() (string, error) {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromium is not installed")
}

// printPDF prints a self-contained HTML document to A4 PDF in a fresh
// headless Chromium (its own profile directory, removed after).
func printPDF(ctx context.Context, html string) ([]byte, error) {
	exe, err := chromium()
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp("", "report-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to sandbox as root
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	// A data: URL needs no server; the page is self-contained.
	doc := "data:text/html;base64," + base64.StdEncoding.EncodeToString([]byte(html))
	if err := chromedp.Do(bctx, chromedp.Navigate(doc), chromedp.WaitVisible(chromedp.CSS("#report-end"))); err != nil {
		return nil, err
	}
	pdf, err := chromedp.Run(bctx, chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperA4), chromedp.PDFMargin(0.5), chromedp.PDFPrintBackground()))
	if err != nil {
		return nil, err
	}
	return pdf, nil
}

// reportRoutes registers the report (called from batchRoutes).
func (s *Server) reportRoutes(authed []echo.MiddlewareFunc) {
	verified := append(append([]echo.MiddlewareFunc{}, authed...), s.requireVerified)
	s.echo.GET("/reports/batches/:id", s.batchReport, verified...)
}
