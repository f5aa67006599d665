package views

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/turbinesim/turbinesim"
)

// fmtNum shows a stated parameter, "" when absent (editor inputs).
func fmtNum(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// fmtParam shows a parameter with its unit, "—" when absent.
func fmtParam(v *float64, unit string) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64) + " " + unit
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

func controllerValue(c turbinesim.ControllerSetting) string {
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
