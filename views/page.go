// Package views holds the templ components of the web application: the
// layout with navigation, pages and the fragments htmx swaps in. Components
// take plain values; they never query anything.
package views

import (
	"encoding/json"

	"github.com/turbinesim/turbinesim"
)

// Page carries what the layout needs around every page.
type Page struct {
	Title  string
	Active string // key of the navigation entry to highlight
	// Auth is the signed-in caller, nil on the login page and on errors
	// seen before authentication.
	Auth *turbinesim.Auth
	// CSRF is the session's anti-forgery token; the layout sends it as the
	// X-CSRF-Token header on every htmx request and forms embed it.
	CSRF string
	// Charts loads ECharts on the page.
	Charts bool
}

// NavItem is one entry of the main navigation.
type NavItem struct {
	Key, Label, Href string
}

// Nav lists the main navigation in display order.
func Nav() []NavItem {
	return []NavItem{
		{"dashboard", "Dashboard", "/dashboard"},
		{"turbines", "Turbines", "/turbines"},
		{"jobs", "Jobs", "/jobs"},
		{"batches", "Batches", "/batches"},
		{"studies", "Studies", "/studies"},
		{"account", "Account", "/account"},
	}
}

// csrfHeaders is the hx-headers value carrying the anti-forgery token.
func csrfHeaders(token string) string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": token})
	return string(b)
}

func navClass(active bool) string {
	if active {
		return "rounded-md bg-sky-700 px-3 py-2 text-sm font-medium text-white"
	}
	return "rounded-md px-3 py-2 text-sm font-medium text-sky-100 hover:bg-sky-600 hover:text-white"
}

// htmxConfig makes htmx swap error responses too (htmx 2 ignores 4xx/5xx
// bodies by default), so a failed form shows its message; the server
// retargets generic errors to the #flash slot. Scripts stay out of the page
// (no inline JavaScript), and htmx's eval-based features are off.
const htmxConfig = `{"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},{"code":"[45]..","swap":true,"error":true}],"allowEval":false,"selfRequestsOnly":true}`

func chartClass(class string) string {
	if class == "" {
		return "h-80 w-full"
	}
	return class
}

// faviconSVG is the tab icon: a three-bladed rotor in the navigation's
// blue, as a data: URL.
const faviconSVG = "data:image/svg+xml," +
	"%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E" +
	"%3Crect width='32' height='32' rx='6' fill='%23075985'/%3E" +
	"%3Cg stroke='white' stroke-width='3' stroke-linecap='round'%3E" +
	"%3Cpath d='M16 16V5M16 16l9.5 5.5M16 16l-9.5 5.5'/%3E%3C/g%3E%3C/svg%3E"

// JobNames are what people called a job before jobs had names (jobs
// without one): its run
// name in its batch (e.g. DLC1.1_V25.0_S1_Y+10) and the stored turbine it
// ran; either is "" when the job has none.
type JobNames struct {
	Run       string
	Turbine   string
	TurbineID string
}

// Title is the job page's heading: the run name, else the turbine's name,
// else the main input file (a job uploaded as a ZIP).
func (n JobNames) Title(j *turbinesim.Job) string {
	switch {
	case n.Run != "":
		return n.Run
	case n.Turbine != "":
		return n.Turbine
	}
	return j.Entrypoint
}
