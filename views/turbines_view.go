package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
	"github.com/turbinesim/turbinesim/decks"
)

// fmtNum shows a stated parameter, "" when absent (editor inputs).
func fmtNum(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// fmtParam shows a parameter with its unit, "—" when absent, rounded to
// two decimals: a deck's 150.0001 m hub height reads 150 m, a 241.94 m
// rotor keeps its centimetres.
func fmtParam(v *float64, unit string) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(math.Round(*v*100)/100, 'f', -1, 64) + " " + unit
}

func pageURL(q string, page, size int) string {
	v := url.Values{}
	if q != "" {
		v.Set("q", q)
	}
	v.Set("page", strconv.Itoa(page))
	v.Set("page_size", strconv.Itoa(size))
	return "/turbines?" + v.Encode()
}

func airfoilLinkClass(active bool) string {
	if active {
		return "rounded bg-sky-700 px-2 py-1 text-white"
	}
	return "rounded bg-slate-100 px-2 py-1 text-slate-700 hover:bg-slate-200"
}

func controllerValue(c decks.ControllerSetting) string {
	if c.Text != "" {
		return c.Text
	}
	parts := make([]string, len(c.Values))
	for i, v := range c.Values {
		parts[i] = strconv.FormatFloat(v, 'g', 6, 64)
	}
	return strings.Join(parts, " ")
}

func anyString(v any) string { return fmt.Sprint(v) }

// blobField is one JSON configuration blob in the page's blob editor.
type blobField struct {
	Name  string // JSON name, also the form field
	Label string
	Text  string // indented JSON; "" when the blob is absent
}

// configBlobs lists the turbine's four JSON blobs in page order.
func configBlobs(t *turbinesim.Turbine) []blobField {
	return []blobField{
		{"blade_config", "Blade configuration", indentJSON(t.BladeConfig)},
		{"tower_config", "Tower configuration", indentJSON(t.TowerConfig)},
		{"nacelle_config", "Nacelle configuration", indentJSON(t.NacelleConfig)},
		{"controller_config", "Controller configuration", indentJSON(t.ControllerConfig)},
	}
}

// indentJSON shows a stored blob two-space indented for editing.
func indentJSON(b turbinesim.ConfigBlob) string {
	if len(b) == 0 {
		return ""
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return string(b)
	}
	return out.String()
}

// blobRows sizes a text area to its content, within reason.
func blobRows(text string) string {
	return strconv.Itoa(min(max(strings.Count(text, "\n")+2, 4), 20))
}
