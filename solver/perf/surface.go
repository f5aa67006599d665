// Package perf computes steady rotor performance surfaces — power, thrust
// and torque coefficients over tip-speed ratio × blade pitch at one wind
// speed — for a rigid rotor with quasi-steady BEMT (solver/aero), and reads
// and writes them in the text layout of ROSCO's Cp_Ct_Cq.*.txt files.
//
// Normalisation follows ROSCO's CCBlade run (rosco/toolbox/turbine.py and
// CCBlade's evaluate): TSR = Omega*R/U with R the tip radius (TipRad) and U
// the horizontal wind speed at hub height; Cp = P/(q U A), Ct = T/(q A),
// Cq = Q/(q A Rd) with q = rho U^2/2, A = pi Rd^2 and Rd = TipRad*cos(PreCone)
// the radius of the coned disk; T and Q are the thrust and torque about the
// shaft, averaged over rotor azimuth.
package perf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/turbinesim/turbinesim/solver/aero"
)

// DefaultTool is the program a surface computed here names in its header.
const DefaultTool = "turbinesim"

// Surface is a performance table: Cp[i][j] at TSR[i] and Pitch[j].
type Surface struct {
	Name      string    // turbine name written in the header
	Date      string    // "Jan-13-22" style date written in the header; empty: today
	Tool      string    // program named in the header's "Written on … using …"; empty: DefaultTool
	WindSpeed float64   // m/s
	TSR       []float64 // rows
	Pitch     []float64 // columns (deg)
	Cp, Ct    [][]float64
	Cq        [][]float64
}

// Options controls Compute.
type Options struct {
	WindSpeed float64   // horizontal hub-height wind speed (m/s); must be > 0
	TSR       []float64 // rows; nil: ROSCO's default 2.0:0.5:14.5
	Pitch     []float64 // columns (deg); nil: ROSCO's default -5:1:30
	ShearExp  float64   // power-law shear exponent about the hub height (ROSCO's CCBlade run hard-codes 0.2)
	NSector   int       // azimuth positions per blade pitch averaged; <=0: 8 (as ROSCO)
	Workers   int       // concurrent rows; <=0: runtime.NumCPU()
}

// DefaultTSR and DefaultPitch are ROSCO's default grid (turbine.py).
func DefaultTSR() []float64   { return grid(2, 0.5, 26) }
func DefaultPitch() []float64 { return grid(-5, 1, 36) }

func grid(start, step float64, n int) []float64 {
	g := make([]float64, n)
	for i := range g {
		g[i] = start + step*float64(i)
	}
	return g
}

// Geometry places the rigid rotor and sets the normalising radii.
type Geometry struct {
	State      aero.RigidState // hub position, yaw, tilt, precone (azimuth, speed and pitch are set per point)
	TipRadius  float64         // R for the TSR (TipRad)
	DiskRadius float64         // Rd for the coefficients (TipRad*cos(PreCone))
	AirDens    float64         // kg/m^3
}

// Compute evaluates the surface, one goroutine per TSR row, at most
// opts.Workers at a time. It stops early with ctx.Err() when ctx is done.
func Compute(ctx context.Context, rot *aero.Rotor, g Geometry, opts Options) (*Surface, error) {
	if rot == nil {
		return nil, errors.New("perf: nil rotor")
	}
	if !(opts.WindSpeed > 0) || !finite(opts.WindSpeed) {
		return nil, fmt.Errorf("perf: wind speed %g must be positive", opts.WindSpeed)
	}
	if !(g.TipRadius > 0) || !(g.DiskRadius > 0) || !(g.AirDens > 0) {
		return nil, fmt.Errorf("perf: tip radius %g, disk radius %g and air density %g must be positive", g.TipRadius, g.DiskRadius, g.AirDens)
	}
	tsr, pitch := opts.TSR, opts.Pitch
	if tsr == nil {
		tsr = DefaultTSR()
	}
	if pitch == nil {
		pitch = DefaultPitch()
	}
	for _, v := range append(append([]float64{}, tsr...), pitch...) {
		if !finite(v) {
			return nil, errors.New("perf: non-finite TSR or pitch")
		}
	}
	nsec := opts.NSector
	if nsec <= 0 {
		nsec = 8
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	s := &Surface{WindSpeed: opts.WindSpeed, TSR: append([]float64{}, tsr...), Pitch: append([]float64{}, pitch...)}
	s.Cp, s.Ct, s.Cq = alloc(len(tsr), len(pitch)), alloc(len(tsr), len(pitch)), alloc(len(tsr), len(pitch))

	u := opts.WindSpeed
	zHub := g.State.HubPosition[2]
	if !(zHub > 0) {
		return nil, fmt.Errorf("perf: hub height %g must be positive", zHub)
	}
	wind := func(p aero.Vec3) aero.Vec3 {
		if p[2] <= 0 {
			return aero.Vec3{}
		}
		v := u
		if opts.ShearExp != 0 {
			v *= math.Pow(p[2]/zHub, opts.ShearExp)
		}
		return aero.Vec3{v, 0, 0}
	}
	q := 0.5 * g.AirDens * u * u
	area := math.Pi * g.DiskRadius * g.DiskRadius
	nb := rot.Params().NumBlades

	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i := range tsr {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			var in aero.Input
			out := rot.NewOutput()
			omega := tsr[i] * u / g.TipRadius
			for j := range pitch {
				if ctx.Err() != nil {
					return
				}
				var thrust, torque float64
				for k := 0; k < nsec; k++ {
					st := g.State
					st.Azimuth = 2 * math.Pi / float64(nb) * float64(k) / float64(nsec)
					st.RotorSpeed = omega
					st.Pitch = []float64{pitch[j] * math.Pi / 180}
					err := rot.RigidInput(st, wind, &in)
					if err == nil {
						err = rot.CalcOutput(0, &in, out)
					}
					if err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = fmt.Errorf("perf: TSR %g pitch %g: %w", tsr[i], pitch[j], err)
						}
						mu.Unlock()
						return
					}
					thrust += out.Rotor.Force[0]
					torque += out.Rotor.Moment[0]
				}
				thrust /= float64(nsec)
				torque /= float64(nsec)
				s.Cp[i][j] = torque * omega / (q * area * u)
				s.Ct[i][j] = thrust / (q * area)
				s.Cq[i][j] = torque / (q * area * g.DiskRadius)
			}
		}(i)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return s, nil
}

func alloc(n, m int) [][]float64 {
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, m)
	}
	return a
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
