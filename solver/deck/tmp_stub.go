package deck

import "os"

type InflowWind struct{}
type ServoDyn struct{}
type Discon struct{}
type Generic struct{}

func (l *loader) loadInflow() error   { return nil }
func (l *loader) loadServo() error    { return nil }
func (l *loader) loadOffshore() error { return nil }
func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
