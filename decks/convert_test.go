package decks_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/decks"
	"github.com/turbinesim/turbinesim/internal/testshared"
	"github.com/turbinesim/turbinesim/solver/coupling"
)

// An uploaded deck in the OpenFAST v3 layout (the published IEA 15 MW
// VolturnUS-S and monopile decks, the IEA 22 MW semisubmersible) is
// converted to the v5 layout on upload: the stored tree has a SeaState
// file (CompSeaSt 1), the warnings list what the conversion added with
// file and line, and the solver accepts and runs it. Before, the upload was
// stored as sent and every job on it was refused (CompSeaSt). The IEA 22 MW
// semisubmersible's published AeroDyn file states WakeMod 12, a defect the
// upload names by file and line; with WakeMod 1 it uploads and runs.
func TestUploadedV3OffshoreDecksAreConvertedAndRun(t *testing.T) {
	for _, c := range []struct {
		family, entry string
		edit          map[string][2]string // file → variable, value
		run           float64              // simulated seconds (0: check only)
	}{
		{family: "IEA-15-240-RWT", entry: "IEA-15-240-RWT-UMaineSemi/IEA-15-240-RWT-UMaineSemi.fst"},
		{family: "IEA-15-240-RWT", entry: "IEA-15-240-RWT-Monopile/IEA-15-240-RWT-Monopile.fst"},
		{family: "IEA-22-280-RWT", entry: "IEA-22-280-RWT-Semi/IEA-22-280-RWT-Semi.fst",
			edit: map[string][2]string{"IEA-22-280-RWT-Semi/IEA-22-280-RWT-Semi_AeroDyn15.dat": {"WakeMod", "1"}}, run: 2},
	} {
		t.Run(filepath.Base(c.entry), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "upload")
			if err := os.CopyFS(dir, os.DirFS(testshared.Path(t, "reference-decks", c.family))); err != nil {
				t.Fatal(err)
			}
			for file, kv := range c.edit {
				// as published: refused, naming the defect by file and line
				if _, err := decks.PrepareUploadedDeck(dir, c.entry); err == nil || !strings.Contains(err.Error(), filepath.Base(file)+":6: WakeMod") {
					t.Fatalf("published deck: %v, want the WakeMod defect named", err)
				}
				p := filepath.Join(dir, filepath.FromSlash(file))
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				b, ok := testshared.SetValue(b, kv[0], kv[1])
				if !ok {
					t.Fatalf("%s: no %s line", file, kv[0])
				}
				if err := os.WriteFile(p, b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			up, err := decks.PrepareUploadedDeck(dir, c.entry)
			if err != nil {
				t.Fatal(err)
			}
			seaState := strings.TrimSuffix(filepath.Base(c.entry), ".fst") + "_SeaState.dat:"
			added := 0
			for _, w := range up.Warnings {
				if strings.Contains(w, seaState) && strings.Contains(w, "added by the conversion to the OpenFAST v5 layout") {
					added++
				}
				if strings.Contains(w, dir) {
					t.Errorf("warning carries a server path: %s", w)
				}
			}
			if added < 10 {
				t.Errorf("%d warnings name an input added to the SeaState file, want each one: %q", added, up.Warnings)
			}
			d, _, err := decks.LoadRunnableDeck(dir, c.entry)
			if err != nil {
				t.Fatal(err)
			}
			if d.Main.CompSeaSt != 1 || d.Offshore.SeaState == nil {
				t.Fatalf("stored deck not in the v5 layout: CompSeaSt %d", d.Main.CompSeaSt)
			}
			if err := coupling.Check(d); err != nil {
				t.Fatalf("the converted upload is refused: %v", err)
			}
			if c.run == 0 {
				return
			}
			res, err := coupling.Run(context.Background(), d, coupling.Options{OutPath: "-", TMax: c.run, KeepData: true, Channels: []string{"PtfmPitch", "RotSpeed"}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(res.Time); n == 0 || res.Time[n-1] < c.run-1e-9 {
				t.Fatalf("run ended early: %d rows", n)
			}
			for i, ch := range res.Channels {
				if ch.Name == "PtfmPitch" || ch.Name == "RotSpeed" {
					t.Logf("%s after %g s: %s %.3f %s", c.entry, c.run, ch.Name, res.Data[i][len(res.Time)-1], ch.Unit)
				}
			}
		})
	}
}
