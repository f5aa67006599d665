package analysis

import (
	"fmt"
	"math"
)

// Cycle is one rainflow-counted cycle: Range is the peak-to-valley range
// |a − b|, Mean is (a + b)/2, Count is 1 for a full cycle and 0.5 for a half
// cycle.
type Cycle struct {
	Range float64 `json:"range"`
	Mean  float64 `json:"mean"`
	Count float64 `json:"count"`
}

// TurningPoints returns the peaks and valleys of y in order: consecutive
// equal samples are merged, and a sample is kept when the signal changes
// direction there. The first and last samples are always kept (they bound
// the first and last ranges, ASTM E1049-85 §5.4.4 counts them). A NaN or Inf
// sample is an error.
func TurningPoints(y []float64) ([]float64, error) {
	if i := firstNonFinite(y); i >= 0 {
		return nil, fmt.Errorf("turning points: sample %d is not finite (%v)", i, y[i])
	}
	tp := make([]float64, 0, 64)
	if len(y) == 0 {
		return tp, nil
	}
	tp = append(tp, y[0])
	dir := 0 // +1 rising, −1 falling, 0 not yet known
	for _, v := range y[1:] {
		last := tp[len(tp)-1]
		switch {
		case v == last:
			continue // plateau: no new information
		case dir == 0:
			// Still on the first point: the first move sets the direction.
			tp = append(tp, v)
		case (v > last) == (dir > 0):
			tp[len(tp)-1] = v // continuing the same way: extend the excursion
			continue
		default:
			tp = append(tp, v) // reversal: last point was a peak or valley
		}
		if v > tp[len(tp)-2] {
			dir = 1
		} else {
			dir = -1
		}
	}
	return tp, nil
}

// Rainflow counts the cycles of y by the rainflow method of ASTM E1049-85
// (reapproved 2011) §5.4.4, on the turning points of y:
//
//  1. read the next turning point (at the end go to 6);
//  2. with fewer than three points go to 1; else let X be the range of the
//     two most recent points and Y the range of the two before it;
//  3. if X < Y go to 1;
//  4. if Y contains the starting point S go to 5; otherwise count Y as one
//     cycle, discard both its points and go to 2;
//  5. count Y as one half cycle, discard its first point (S) so the start
//     moves to its second point, and go to 2;
//  6. count each range left (the residue) as one half cycle.
//
// Ranges are not binned; cycles come out in the order they close, residue
// last. Damage sums and DELs therefore use the exact ranges.
func Rainflow(y []float64) ([]Cycle, error) {
	tp, err := TurningPoints(y)
	if err != nil {
		return nil, fmt.Errorf("rainflow: %w", err)
	}
	return rainflowOfTurningPoints(tp), nil
}

func rainflowOfTurningPoints(tp []float64) []Cycle {
	cycles := make([]Cycle, 0, len(tp)/2+1)
	// stack[0] is always the current starting point S: step 5 discards from
	// the front by re-slicing.
	stack := make([]float64, 0, 64)
	for _, p := range tp {
		stack = append(stack, p)
		for len(stack) >= 3 {
			n := len(stack)
			x := math.Abs(stack[n-1] - stack[n-2])
			yr := math.Abs(stack[n-2] - stack[n-3])
			if x < yr {
				break
			}
			mean := 0.5 * (stack[n-2] + stack[n-3])
			if n == 3 {
				// Y starts at S: half cycle, S moves to Y's second point.
				cycles = append(cycles, Cycle{Range: yr, Mean: mean, Count: 0.5})
				stack = stack[1:]
				continue
			}
			cycles = append(cycles, Cycle{Range: yr, Mean: mean, Count: 1})
			stack[n-3] = stack[n-1]
			stack = stack[:n-2]
		}
	}
	for i := 0; i+1 < len(stack); i++ {
		cycles = append(cycles, Cycle{
			Range: math.Abs(stack[i+1] - stack[i]),
			Mean:  0.5 * (stack[i+1] + stack[i]),
			Count: 0.5,
		})
	}
	return cycles
}
