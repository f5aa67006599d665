package outfile

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim/internal/testshared"
)

func TestValueFormatter(t *testing.T) {
	// Expected strings written by hand from the Fortran edit-descriptor rules
	// (ESw.dEe: one non-zero digit before the point; Ew.d: 0.d mantissa).
	cases := []struct {
		desc string
		x    float32
		want string
	}{
		{"ES10.3E2", 944.1, " 9.441E+02"},
		{"ES10.3E2", -1.2345e-5, "-1.234E-05"}, // float32 1.2345e-5 is 1.23449...e-5
		{"ES10.3E2", float32(math.Copysign(0, -1)), "-0.000E+00"},
		{"ES10.3E2", 0, " 0.000E+00"},
		{"", 1, " 1.000E+00"},
		{"ES15.6E3", 101325, "  1.013250E+005"},
		{"E12.4", 944.1, "  0.9441E+03"},
		{"E12.4", -0.00125, " -0.1250E-02"},
		{"F10.3", 944.1, "   944.100"},
		{"F5.1", 123456, "*****"},
		{"ES10.3E2", float32(math.NaN()), "       NaN"},
		{"ES10.3E2", float32(math.Inf(1)), "  Infinity"},
	}
	for _, c := range cases {
		f, err := ValueFormatter(c.desc)
		if err != nil {
			t.Fatalf("%s: %v", c.desc, err)
		}
		if got := f(c.x); got != c.want {
			t.Errorf("%s of %g = %q, want %q", c.desc, c.x, got, c.want)
		}
	}
	for _, bad := range []string{"I10", "ES10", "ESx.3", "F3.5"} {
		if _, err := ValueFormatter(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestReadTextFixtures(t *testing.T) {
	t.Run("FASTOut.out", func(t *testing.T) {
		path := testshared.Path(t, "fixtures", "openfast-io", "FASTOut.out")
		f, err := ReadTextFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// 29 lines: 8 header lines and 21 rows, t = 0.0 .. 2.0 by 0.1.
		if f.NumRows() != 21 || len(f.Channels) != 1 || f.Channels[0] != (Channel{"GenSpeed", "rpm"}) || f.TimeChannel != (Channel{"Time", "s"}) {
			t.Fatalf("rows %d channels %+v time %+v", f.NumRows(), f.Channels, f.TimeChannel)
		}
		if f.Time[0] != 0 || f.Time[20] != 2 || f.Data[0][0] != 944.1 || f.Data[0][20] != 1036 {
			t.Errorf("first/last row %g %g / %g %g", f.Time[0], f.Data[0][0], f.Time[20], f.Data[0][20])
		}
		want := "Predictions were generated on 09-Oct-2018 at 09:15:01 using OpenFAST, compiled as a 64-bit application using double precision at commit v1.0.0 linked with  NWTC Subroutine Library; ElastoDyn; InflowWind; AeroDyn; ServoDyn; Description from the FAST input file: SNL SWiFT FAST Model Input File, version 2.0 Created on 10-May-2018"
		if f.Description != want {
			t.Errorf("description %q", f.Description)
		}
		// Rewriting must reproduce OpenFAST's data lines byte for byte.
		var buf bytes.Buffer
		if err := WriteText(&buf, f, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		orig, _ := os.ReadFile(path)
		origLines := strings.Split(strings.TrimRight(string(orig), "\n"), "\n")
		ourLines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
		if len(ourLines) != len(origLines) {
			t.Fatalf("%d lines written, original has %d", len(ourLines), len(origLines))
		}
		for i := range origLines {
			o, g := origLines[i], ourLines[i]
			if i == 6 || i == 7 { // v1.0 padded names to 10; v5 trims them with TABs
				o = strings.Join(strings.Fields(o), " ")
				g = strings.Join(strings.Fields(g), " ")
			}
			if o != g {
				t.Errorf("line %d: %q, original %q", i+1, g, o)
			}
		}
	})
	t.Run("FASTOut_Hydro.out", func(t *testing.T) {
		f, err := ReadTextFile(testshared.Path(t, "fixtures", "openfast-io", "FASTOut_Hydro.out"))
		if err != nil {
			t.Fatal(err)
		}
		if f.NumRows() != 5 || len(f.Channels) != 1 || f.Channels[0] != (Channel{"Wave1Elev", "m"}) || f.TimeChannel.Unit != "sec" {
			t.Fatalf("rows %d channels %+v time %+v", f.NumRows(), f.Channels, f.TimeChannel)
		}
		want := []float64{0, 10, 0, -10, 0}
		for k, v := range want {
			if f.Time[k] != float64(k) || f.Data[0][k] != v {
				t.Errorf("row %d: %g %g", k, f.Time[k], f.Data[0][k])
			}
		}
	})
}

func TestTextRoundTrip(t *testing.T) {
	orig := synthetic(5, 120, 0.05)
	orig.Description = "Predictions were generated on 22-Nov-2026 at 03:00:00 using turbinesim linked with  ElastoDyn-equivalent; Description from the FAST input file: test deck"
	orig.Data[2][7] = math.NaN()
	for _, opt := range []TextOptions{{}, {SpaceDelimited: true}, {ValueFormat: "ES15.6E3", TMax: 12345}} {
		var buf bytes.Buffer
		if err := WriteText(&buf, orig, opt); err != nil {
			t.Fatal(err)
		}
		back, err := ReadText(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if back.Description != orig.Description || back.NumRows() != orig.NumRows() || len(back.Channels) != len(orig.Channels) {
			t.Fatalf("%+v: description %q rows %d", opt, back.Description, back.NumRows())
		}
		relTol := 5e-4 // ES10.3: 4 significant digits
		if opt.ValueFormat == "ES15.6E3" {
			relTol = 1e-6
		}
		for c := range orig.Channels {
			if back.Channels[c] != orig.Channels[c] {
				t.Fatalf("channel %+v vs %+v", back.Channels[c], orig.Channels[c])
			}
			for k, x := range orig.Data[c] {
				y := back.Data[c][k]
				if math.IsNaN(x) {
					if !math.IsNaN(y) {
						t.Fatalf("NaN read back as %g", y)
					}
					continue
				}
				if math.Abs(y-x) > relTol*math.Abs(x)+1e-30 {
					t.Fatalf("%+v channel %d row %d: %g vs %g", opt, c, k, y, x)
				}
			}
		}
		for k := range orig.Time {
			if math.Abs(back.Time[k]-orig.Time[k]) > 5e-5 {
				t.Fatalf("time %d: %g vs %g", k, back.Time[k], orig.Time[k])
			}
		}
	}
}

func TestTextTimeWidth(t *testing.T) {
	// TChanLen = max(10, int(log10(TMax))+7): 10 up to 9999 s, 11 from 10^4 s.
	for _, c := range []struct {
		tmax float64
		w    int
	}{{60, 10}, {9999, 10}, {10000, 11}, {123456, 12}} {
		if got := timeWidth(c.tmax); got != c.w {
			t.Errorf("timeWidth(%g) = %d, want %d", c.tmax, got, c.w)
		}
	}
	f := synthetic(1, 2, 20000)
	var buf bytes.Buffer
	if err := WriteText(&buf, f, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&buf)
	var last string
	for sc.Scan() {
		last = sc.Text()
	}
	if cell, _, _ := strings.Cut(last, "\t"); cell != " 20000.0000" {
		t.Errorf("time cell %q", cell)
	}
}

func TestReadTextErrors(t *testing.T) {
	for name, in := range map[string]string{
		"no header":   "1 2 3\n4 5 6\n",
		"short row":   "Time\tA\n(s)\t(m)\n0.0\t1.0\n0.1\n",
		"bad number":  "Time\tA\n(s)\t(m)\n0.0\t1.x0\n",
		"empty input": "",
	} {
		if _, err := ReadText(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestReadFileDetectsFormat(t *testing.T) {
	dir := t.TempDir()
	f := synthetic(2, 10, 0.1)
	if err := WriteOutbFile(dir+"/a.outb", f, OutbOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTextFile(dir+"/a.out", f, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir + "/a.outb", dir + "/a.out"} {
		g, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if g.NumRows() != 10 || len(g.Channels) != 2 {
			t.Errorf("%s: %d rows %d channels", p, g.NumRows(), len(g.Channels))
		}
	}
}

// TestEveryFixtureReads globs the shared fixtures so files added later are
// covered too: every .outb and .out must read and be self-consistent.
func TestEveryFixtureReads(t *testing.T) {
	dir := testshared.Path(t, "fixtures", "openfast-io")
	for _, pattern := range []string{"*.outb", "*.out"} {
		paths, _ := filepath.Glob(filepath.Join(dir, pattern))
		if len(paths) == 0 {
			t.Errorf("no %s fixtures", pattern)
		}
		for _, p := range paths {
			f, err := ReadFile(p)
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(p), err)
				continue
			}
			if err := f.Validate(); err != nil || f.NumRows() == 0 || len(f.Channels) == 0 {
				t.Errorf("%s: %d rows, %d channels, %v", filepath.Base(p), f.NumRows(), len(f.Channels), err)
			}
			for k := 1; k < f.NumRows(); k++ {
				if !(f.Time[k] > f.Time[k-1]) {
					t.Errorf("%s: time not increasing at row %d", filepath.Base(p), k)
					break
				}
			}
		}
	}
}
