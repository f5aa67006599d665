package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/turbinesim/turbinesim"
)

// The study editor opens its linked runs (only the picked ones) together
// in the results workbench, and offers no such link without linked runs.
func TestStudyEditorComparesLinkedRuns(t *testing.T) {
	ed := StudyEditor{
		Study: &turbinesim.Study{ID: "s1", Title: "Loads"},
		Share: &turbinesim.ShareStatus{},
		Jobs: []PickItem{
			{ID: "job-a", Label: "DLC1.2_V12.0_S1", Picked: true},
			{ID: "job-b", Label: "DLC1.2_V14.0_S1"},
			{ID: "job-c", Label: "DLC1.2_V16.0_S1", Picked: true},
		},
	}
	if got, want := ed.CompareLinkedRuns(), "/analysis/compare?run=job-a&run=job-c"; got != want {
		t.Fatalf("CompareLinkedRuns = %q, want %q", got, want)
	}
	var b bytes.Buffer
	if err := StudyEditorPage(Page{}, ed).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `id="study-compare"`) || !strings.Contains(b.String(), `href="/analysis/compare?run=job-a&amp;run=job-c"`) {
		t.Fatalf("the editor page has no link opening the linked runs together")
	}
	ed.Jobs[0].Picked, ed.Jobs[2].Picked = false, false
	b.Reset()
	if err := StudyEditorPage(Page{}, ed).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if ed.CompareLinkedRuns() != "" || strings.Contains(b.String(), `id="study-compare"`) {
		t.Fatal("a study without linked runs offers to compare them")
	}
}
