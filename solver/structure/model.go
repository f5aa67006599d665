package structure

import (
	"fmt"
	"math"
)

// Degree-of-freedom indices of the model's generalized coordinates q.
// Blade k (0-based) mode m uses DOFBlade(k, m).
// The platform DOFs come first, as in ElastoDyn (DOF_Sg … DOF_Y): the
// translation of the platform reference point and the platform rotations.
const (
	DOFSg     = iota // platform surge, m
	DOFSw            // platform sway, m
	DOFHv            // platform heave, m
	DOFR             // platform roll, rad
	DOFP             // platform pitch, rad
	DOFY             // platform yaw, rad
	DOFTFA1          // 1st tower fore-aft mode, m (tower-top deflection)
	DOFTSS1          // 1st tower side-to-side mode, m (positive toward +y)
	DOFTFA2          // 2nd tower fore-aft mode
	DOFTSS2          // 2nd tower side-to-side mode
	DOFYaw           // nacelle yaw, rad
	DOFGeAz          // generator azimuth (LSS side), rad
	DOFDrTr          // drivetrain torsion, rad
	dofBlade0        // first blade DOF
)

// Blade modes, in the order they appear per blade.
const (
	ModeFlap1 = 0
	ModeEdge1 = 1
	ModeFlap2 = 2
)

// DOFBlade is the index of mode m (ModeFlap1, ModeEdge1, ModeFlap2) of blade k (0-based).
func DOFBlade(k, m int) int { return dofBlade0 + 3*k + m }

// bladeShape holds ElastoDyn's twisted shape functions of one blade at one
// spanwise location: displacement and slope along the pitched-frame axes j1
// (x, flapwise at zero twist) and j2 (y, edgewise) per mode, and the axial
// reduction coefficients ∫φ'ᵢ·φ'ⱼ dr.
type bladeShape struct {
	dx, dy [3]float64
	sx, sy [3]float64
	axRed  [3][3]float64
}

// towerShape holds tower mode shapes at one height.
type towerShape struct {
	fa, ss     [2]float64 // displacement
	faS, ssS   [2]float64 // slope
	axFA, axSS [2][2]float64
}

// Model is the precomputed structural model (ElastoDyn's Coeff step): the
// discretization, masses, shape functions and generalized stiffness and
// damping. It is immutable after NewModel and safe for concurrent reads.
type Model struct {
	p    Params
	nDOF int

	// Blades.
	bldFlexL float64
	bldDR    float64
	rNodes   []float64      // element-centre distance from the blade root
	bElmMass [][]float64    // [blade][node] kg
	bShape   [][]bladeShape // [blade][0..BldNodes+1]: root, nodes, tip
	bK, bC   [][3][3]float64

	// Load stations (aerodynamic nodes), distance from the blade root.
	loadR     [][]float64
	loadShape [][]bladeShape

	// Tower.
	twrFlexL float64
	twrDH    float64
	hNodes   []float64 // above tower base
	tElmMass []float64
	tShape   []towerShape // 0..TwrNodes+1: base, nodes, top
	kFA, cFA [2][2]float64
	kSS, cSS [2][2]float64

	nacIner float64 // nacelle inertia about the vertical axis through its CM

	// floating is true when the platform can move or is displaced
	// (a platform DOF on or a non-zero initial platform displacement); a
	// land-based model skips the platform transform entirely.
	floating  bool
	ptfmRef0  vec3          // undisplaced platform reference point
	ptfmIner  [3][3]float64 // platform inertia about its CM, platform axes
	ptPtfmCM  int           // platform CM point (mass PtfmMass), −1 when not floating
	ptPtfmRef int           // platform reference point (massless), −1 when not floating

	// Point bookkeeping.
	nPoints  int
	ptYawBr  int
	ptNac    int
	ptHub    int
	ptIMU    int // massless nacelle IMU point
	ptBlade0 int // start of blade node points; blade k node J: ptBlade0+k*(BldNodes+1)+J, tip at J=BldNodes
	ptLoad0  []int
	// Tower load stations (massless points).
	ptTwrLoad0   int
	twrLoadElev  []float64
	twrLoadH     []float64
	twrLoadShape []towerShape
	ptMass       []float64

	// Natural frequencies (Hz) without centrifugal stiffening / gravity, for reports.
	FreqBF  [2]float64
	FreqBE  float64
	FreqTFA [2]float64
	FreqTSS [2]float64
	// mTFA is the tower's own generalized fore-aft mass of each mode.
	mTFA [2]float64
}

// TowerTopMass is the mass the tower top carries: yaw bearing, nacelle,
// hub and blades with their tip masses (ElastoDyn's TwrTpMass).
func (m *Model) TowerTopMass() float64 {
	p := &m.p
	top := p.YawBrMass + p.NacMass + p.HubMass
	for k := 0; k < p.NumBl; k++ {
		for j := 0; j < p.BldNodes; j++ {
			top += m.bElmMass[k][j]
		}
		top += p.TipMass[k]
	}
	return top
}

// FirstTowerFAFrequency is the first tower fore-aft natural frequency (Hz)
// of the tower carrying its top mass as a point mass at the top (mode
// shapes are normalised to 1 there, so it adds TowerTopMass to the
// generalized mass), without gravitational destiffening: ElastoDyn's
// FreqTFA(1,2) of its summary file without the gravity term (ElastoDyn
// Coeff: MTFA includes TwrTpMass).
func (m *Model) FirstTowerFAFrequency() float64 {
	return math.Sqrt(m.kFA[0][0]/(m.mTFA[0]+m.TowerTopMass())) / (2 * math.Pi)
}

// NumDOF is the number of generalized coordinates (13 + 3·NumBl).
func (m *Model) NumDOF() int { return m.nDOF }

// Params returns a copy of the parameters the model was built from.
func (m *Model) Params() Params { return m.p }

// LoadStations returns the blade load-station radii (from the blade root).
func (m *Model) LoadStations(k int) []float64 { return m.loadR[k] }

func shp(c *[5]float64, x, L float64, deriv int) float64 {
	v := 0.0
	for i := 0; i < 5; i++ {
		e := float64(i + 2)
		switch deriv {
		case 0:
			v += c[i] * math.Pow(x, e)
		case 1:
			v += c[i] * e * math.Pow(x, e-1) / L
		case 2:
			v += c[i] * e * (e - 1) * math.Pow(x, e-2) / (L * L)
		}
	}
	return v
}

// interp is linear interpolation in a table, clamped at the ends
// (ElastoDyn InterpStp).
func interp(x float64, xs, ys []float64) float64 {
	n := len(xs)
	if x <= xs[0] {
		return ys[0]
	}
	if x >= xs[n-1] {
		return ys[n-1]
	}
	for i := 1; i < n; i++ {
		if x <= xs[i] {
			f := (x - xs[i-1]) / (xs[i] - xs[i-1])
			return ys[i-1] + f*(ys[i]-ys[i-1])
		}
	}
	return ys[n-1]
}

// NewModel validates p and precomputes the model. loadStations[k] lists the
// radii (m from the blade root, e.g. AeroDyn's BlSpn) at which blade k
// receives aerodynamic point loads and reports motions; it may be nil.
func NewModel(p Params, loadStations [][]float64) (*Model, error) {
	return NewModelWithTower(p, loadStations, nil)
}

// NewModelWithTower is NewModel with tower load stations as well: heights
// above ground (e.g. AeroDyn's TwrElev) where the tower receives point
// loads (aerodynamic drag) and reports its motion. Stations outside the
// flexible tower (below TowerBsHt or above TowerHt) are clamped to its ends.
func NewModelWithTower(p Params, loadStations [][]float64, towerElev []float64) (*Model, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("structure: invalid parameters: %w", err)
	}
	m := &Model{p: p, nDOF: dofBlade0 + 3*p.NumBl}
	m.setupBlades()
	if err := m.setupTower(); err != nil {
		return nil, err
	}
	if loadStations == nil {
		loadStations = make([][]float64, p.NumBl)
	}
	if len(loadStations) != p.NumBl {
		return nil, fmt.Errorf("structure: %d load-station lists for %d blades", len(loadStations), p.NumBl)
	}
	m.loadR = make([][]float64, p.NumBl)
	m.loadShape = make([][]bladeShape, p.NumBl)
	for k := 0; k < p.NumBl; k++ {
		m.loadR[k] = append([]float64(nil), loadStations[k]...)
		m.loadShape[k] = make([]bladeShape, len(loadStations[k]))
		for i, r := range loadStations[k] {
			if math.IsNaN(r) || r < -1e-6 || r > m.bldFlexL*(1+1e-6) {
				return nil, fmt.Errorf("structure: blade %d load station %d at r=%v m lies outside the blade (0..%v m)", k+1, i+1, r, m.bldFlexL)
			}
			m.loadShape[k][i] = m.bladeShapeAt(k, r)
		}
	}
	m.twrLoadElev = append([]float64(nil), towerElev...)
	m.twrLoadShape = make([]towerShape, len(towerElev))
	m.twrLoadH = make([]float64, len(towerElev))
	for i, z := range towerElev {
		if math.IsNaN(z) {
			return nil, fmt.Errorf("structure: tower load station %d height is NaN", i+1)
		}
		h := math.Max(0, math.Min(m.twrFlexL, z-p.TowerBsHt))
		m.twrLoadH[i] = h
		m.twrLoadShape[i] = m.towerShapeAt(h)
	}
	// Points.
	n := p.TwrNodes
	m.ptYawBr = n
	m.ptNac = n + 1
	m.ptHub = n + 2
	m.ptIMU = n + 3
	m.ptBlade0 = n + 4
	n = m.ptBlade0 + p.NumBl*(p.BldNodes+1)
	m.ptLoad0 = make([]int, p.NumBl)
	for k := 0; k < p.NumBl; k++ {
		m.ptLoad0[k] = n
		n += len(m.loadR[k])
	}
	m.ptTwrLoad0 = n
	n += len(towerElev)
	m.ptPtfmCM, m.ptPtfmRef = -1, -1
	m.floating = p.DOF.PtfmSgDOF || p.DOF.PtfmSwDOF || p.DOF.PtfmHvDOF || p.DOF.PtfmRDOF || p.DOF.PtfmPDOF || p.DOF.PtfmYDOF ||
		p.Init.PtfmSurge != 0 || p.Init.PtfmSway != 0 || p.Init.PtfmHeave != 0 || p.Init.PtfmRoll != 0 || p.Init.PtfmPitch != 0 || p.Init.PtfmYaw != 0
	if m.floating {
		m.ptPtfmCM, m.ptPtfmRef = n, n+1
		n += 2
		m.ptfmRef0 = vec3{p.PtfmRefxt, p.PtfmRefyt, p.PtfmRefzt}
		// Products of inertia are given as −∫xy dm etc., i.e. the
		// off-diagonal entries of the inertia tensor themselves.
		m.ptfmIner = [3][3]float64{
			{p.PtfmRIner, p.PtfmXYIner, p.PtfmXZIner},
			{p.PtfmXYIner, p.PtfmPIner, p.PtfmYZIner},
			{p.PtfmXZIner, p.PtfmYZIner, p.PtfmYIner},
		}
	}
	m.nPoints = n
	m.ptMass = make([]float64, n)
	copy(m.ptMass, m.tElmMass)
	m.ptMass[m.ptYawBr] = p.YawBrMass
	m.ptMass[m.ptNac] = p.NacMass
	m.ptMass[m.ptHub] = p.HubMass
	if m.floating {
		m.ptMass[m.ptPtfmCM] = p.PtfmMass
	}
	for k := 0; k < p.NumBl; k++ {
		for j := 0; j < p.BldNodes; j++ {
			m.ptMass[m.ptBlade0+k*(p.BldNodes+1)+j] = m.bElmMass[k][j]
		}
		m.ptMass[m.ptBlade0+k*(p.BldNodes+1)+p.BldNodes] = p.TipMass[k]
	}
	m.nacIner = p.NacYIner - p.NacMass*(p.NacCMxn*p.NacCMxn+p.NacCMyn*p.NacCMyn)
	if m.nacIner < 0 {
		return nil, fmt.Errorf("structure: NacYIner (%v) is smaller than the nacelle mass's parallel-axis term", p.NacYIner)
	}
	return m, nil
}

// setupBlades discretizes the blades and computes ElastoDyn's twisted shape
// functions, axial-reduction terms and generalized stiffness and damping
// (ElastoDyn Coeff; Jonkman 2005 FAST theory, blade section).
func (m *Model) setupBlades() {
	p := &m.p
	N := p.BldNodes
	m.bldFlexL = p.TipRad - p.HubRad
	m.bldDR = m.bldFlexL / float64(N)
	m.rNodes = make([]float64, N)
	for j := range m.rNodes {
		m.rNodes[j] = (float64(j) + 0.5) * m.bldDR
	}
	m.bElmMass = make([][]float64, p.NumBl)
	m.bShape = make([][]bladeShape, p.NumBl)
	m.bK = make([][3][3]float64, p.NumBl)
	m.bC = make([][3][3]float64, p.NumBl)
	L, dr := m.bldFlexL, m.bldDR
	for k := 0; k < p.NumBl; k++ {
		b := &p.Blades[k]
		mass := make([]float64, N)
		shapes := make([]bladeShape, N+2)
		// Curvatures of the twisted shapes at element centres, [node][mode] along x and y.
		curvX := make([][3]float64, N)
		curvY := make([][3]float64, N)
		var mgen [3]float64
		var kF [2][2]float64
		var kE float64
		for j := 0; j < N; j++ {
			x := m.rNodes[j] / L
			mass[j] = interp(x, b.BlFract, b.BMassDen) * b.AdjBlMs * dr
			eiF := interp(x, b.BlFract, b.FlpStff) * b.AdjFlSt
			eiE := interp(x, b.BlFract, b.EdgStff) * b.AdjEdSt
			tw := interp(x, b.BlFract, b.StrcTwst)
			ct, st := math.Cos(tw), math.Sin(tw)
			f1 := shp(&b.BldFl1Sh, x, L, 2)
			f2 := shp(&b.BldFl2Sh, x, L, 2)
			e1 := shp(&b.BldEdgSh, x, L, 2)
			// Twisted curvature: flap modes bend about the principal axis
			// rotated by the structural twist (ElastoDyn TwistedSF).
			curvX[j] = [3]float64{f1 * ct, e1 * st, f2 * ct}
			curvY[j] = [3]float64{-f1 * st, e1 * ct, -f2 * st}
			kF[0][0] += eiF * dr * f1 * f1
			kF[0][1] += eiF * dr * f1 * f2
			kF[1][1] += eiF * dr * f2 * f2
			kE += eiE * dr * e1 * e1
			s1 := shp(&b.BldFl1Sh, x, L, 0)
			s2 := shp(&b.BldFl2Sh, x, L, 0)
			se := shp(&b.BldEdgSh, x, L, 0)
			mgen[0] += mass[j] * s1 * s1
			mgen[1] += mass[j] * se * se
			mgen[2] += mass[j] * s2 * s2
		}
		kF[1][0] = kF[0][1]
		for i := 0; i < 2; i++ {
			for l := 0; l < 2; l++ {
				kF[i][l] *= math.Sqrt(b.FlStTunr[i] * b.FlStTunr[l])
			}
		}
		// Integrate curvature to slope and displacement with ElastoDyn's
		// element-centre scheme: half of the current element plus all of the
		// elements inboard.
		var prevSX, prevSY [3]float64 // slope contributions (half element) of previous node
		var prevDX, prevDY [3]float64
		var prevAx [3][3]float64
		for j := 0; j < N; j++ {
			sh := &shapes[j+1]
			var hsx, hsy [3]float64
			for md := 0; md < 3; md++ {
				hsx[md] = curvX[j][md] * 0.5 * dr
				hsy[md] = curvY[j][md] * 0.5 * dr
				sh.sx[md] = hsx[md]
				sh.sy[md] = hsy[md]
				if j > 0 {
					sh.sx[md] += shapes[j].sx[md] + prevSX[md]
					sh.sy[md] += shapes[j].sy[md] + prevSY[md]
				}
			}
			var hdx, hdy [3]float64
			for md := 0; md < 3; md++ {
				hdx[md] = sh.sx[md] * 0.5 * dr
				hdy[md] = sh.sy[md] * 0.5 * dr
				sh.dx[md] = hdx[md]
				sh.dy[md] = hdy[md]
				if j > 0 {
					sh.dx[md] += shapes[j].dx[md] + prevDX[md]
					sh.dy[md] += shapes[j].dy[md] + prevDY[md]
				}
			}
			var hax [3][3]float64
			for a := 0; a < 3; a++ {
				for c := 0; c < 3; c++ {
					hax[a][c] = 0.5 * dr * (sh.sx[a]*sh.sx[c] + sh.sy[a]*sh.sy[c])
					sh.axRed[a][c] = hax[a][c]
					if j > 0 {
						sh.axRed[a][c] += shapes[j].axRed[a][c] + prevAx[a][c]
					}
				}
			}
			prevSX, prevSY, prevDX, prevDY, prevAx = hsx, hsy, hdx, hdy, hax
		}
		tip := &shapes[N+1]
		for md := 0; md < 3; md++ {
			tip.sx[md] = shapes[N].sx[md] + prevSX[md]
			tip.sy[md] = shapes[N].sy[md] + prevSY[md]
			tip.dx[md] = shapes[N].dx[md] + prevDX[md]
			tip.dy[md] = shapes[N].dy[md] + prevDY[md]
			for c := 0; c < 3; c++ {
				tip.axRed[md][c] = shapes[N].axRed[md][c] + prevAx[md][c]
			}
		}
		m.bElmMass[k] = mass
		m.bShape[k] = shapes

		// Generalized stiffness over (flap1, edge1, flap2) and damping
		// C = 0.01·ζ·K/(π f), f the frequency without centrifugal stiffening
		// or tip mass (ElastoDyn Coeff).
		var K [3][3]float64
		K[0][0], K[0][2], K[2][0], K[2][2] = kF[0][0], kF[0][1], kF[1][0], kF[1][1]
		K[1][1] = kE
		fF1 := math.Sqrt(kF[0][0]/mgen[0]) / (2 * math.Pi)
		fF2 := math.Sqrt(kF[1][1]/mgen[2]) / (2 * math.Pi)
		fE1 := math.Sqrt(kE/mgen[1]) / (2 * math.Pi)
		if k == 0 {
			m.FreqBF = [2]float64{fF1, fF2}
			m.FreqBE = fE1
		}
		var C [3][3]float64
		// Column index selects the damping ratio and frequency of that mode.
		zf := [2]float64{b.BldFlDmp[0], b.BldFlDmp[1]}
		ff := [2]float64{fF1, fF2}
		idx := [2]int{0, 2}
		for i := 0; i < 2; i++ {
			for l := 0; l < 2; l++ {
				C[idx[i]][idx[l]] = 0.01 * zf[l] * K[idx[i]][idx[l]] / (math.Pi * ff[l])
			}
		}
		C[1][1] = 0.01 * b.BldEdDmp * kE / (math.Pi * fE1)
		m.bK[k] = K
		m.bC[k] = C
	}
}

// bladeShapeAt gives the twisted shape functions of blade k at distance r
// from the root as OpenFAST's Line2-to-point motion mapping carries the
// structural nodes' motion to a point between them (ModMesh_Mapping,
// Transfer_Motions_Line2_to_Point): each neighbouring node's displacement
// plus its rotation applied to the arm from that node to the point,
// u = Σ Nᵢ (uᵢ + θᵢ × (r − rᵢ)), weighted linearly; slopes (orientations)
// and axial shortening are interpolated linearly. For a deflection shape
// φ the displacement is Σ Nᵢ (φᵢ + φ'ᵢ·(r − rᵢ)), which differs from the
// chord Σ Nᵢ φᵢ by −N₁N₂·h²·d²φ/dr².
func (m *Model) bladeShapeAt(k int, r float64) bladeShape {
	N := m.p.BldNodes
	xs := make([]float64, N+2)
	xs[0] = 0
	copy(xs[1:], m.rNodes)
	xs[N+1] = m.bldFlexL
	sh := m.bShape[k]
	i := 1
	for i < N+1 && xs[i] < r {
		i++
	}
	f := 0.0
	if xs[i] > xs[i-1] {
		f = (r - xs[i-1]) / (xs[i] - xs[i-1])
	}
	f = math.Max(0, math.Min(1, f))
	a, b := &sh[i-1], &sh[i]
	var out bladeShape
	for md := 0; md < 3; md++ {
		// The node's rotation turns the arm (along the blade axis j3) by
		// the slope: a slope sx (dx/dr) moves the point by sx·arm along j1.
		armA, armB := r-xs[i-1], r-xs[i]
		out.dx[md] = (1-f)*(a.dx[md]+a.sx[md]*armA) + f*(b.dx[md]+b.sx[md]*armB)
		out.dy[md] = (1-f)*(a.dy[md]+a.sy[md]*armA) + f*(b.dy[md]+b.sy[md]*armB)
		out.sx[md] = a.sx[md] + f*(b.sx[md]-a.sx[md])
		out.sy[md] = a.sy[md] + f*(b.sy[md]-a.sy[md])
		for c := 0; c < 3; c++ {
			out.axRed[md][c] = a.axRed[md][c] + f*(b.axRed[md][c]-a.axRed[md][c])
		}
	}
	return out
}

// setupTower discretizes the tower (ElastoDyn Coeff, tower section).
func (m *Model) setupTower() error {
	p := &m.p
	t := &p.Tower
	N := p.TwrNodes
	m.twrFlexL = p.TowerHt - p.TowerBsHt
	L := m.twrFlexL
	dh := L / float64(N)
	m.twrDH = dh
	m.hNodes = make([]float64, N)
	m.tElmMass = make([]float64, N)
	m.tShape = make([]towerShape, N+2)
	var eiFA, eiSS = make([]float64, N), make([]float64, N)
	coefFA := [2]*[5]float64{&t.TwFAM1Sh, &t.TwFAM2Sh}
	coefSS := [2]*[5]float64{&t.TwSSM1Sh, &t.TwSSM2Sh}
	for j := 0; j < N; j++ {
		h := (float64(j) + 0.5) * dh
		m.hNodes[j] = h
		x := h / L
		m.tElmMass[j] = interp(x, t.HtFract, t.TMassDen) * t.AdjTwMa * dh
		eiFA[j] = interp(x, t.HtFract, t.TwFAStif) * t.AdjFASt
		eiSS[j] = interp(x, t.HtFract, t.TwSSStif) * t.AdjSSSt
		for i := 0; i < 2; i++ {
			m.tShape[j+1].fa[i] = shp(coefFA[i], x, L, 0)
			m.tShape[j+1].faS[i] = shp(coefFA[i], x, L, 1)
			m.tShape[j+1].ss[i] = shp(coefSS[i], x, L, 0)
			m.tShape[j+1].ssS[i] = shp(coefSS[i], x, L, 1)
		}
	}
	for i := 0; i < 2; i++ {
		m.tShape[N+1].fa[i] = shp(coefFA[i], 1, L, 0)
		m.tShape[N+1].faS[i] = shp(coefFA[i], 1, L, 1)
		m.tShape[N+1].ss[i] = shp(coefSS[i], 1, L, 0)
		m.tShape[N+1].ssS[i] = shp(coefSS[i], 1, L, 1)
	}
	// Axial reduction ∫φ'ᵢφ'ⱼ dh, accumulated as ElastoDyn's Coeff does:
	// node J's half-element term is 0.5·Δh·φ'ᵢ(h_J)·φ'ⱼ(h_J), the slopes of
	// both modes at node J itself (the same midpoint-node scheme as the
	// blades' AxRedBld). The value at node J is its own half element plus
	// the node below's value and that node's upper half element; the tower
	// top adds the top node's upper half. The axial shortening, through the
	// gravity load on every mass above the base, is the tower's gravitational
	// destiffening.
	var prevFA, prevSS [2][2]float64
	for j := 0; j < N; j++ {
		cur, below := &m.tShape[j+1], &m.tShape[j]
		var hFA, hSS [2][2]float64
		for a := 0; a < 2; a++ {
			for c := 0; c < 2; c++ {
				hFA[a][c] = 0.5 * dh * cur.faS[a] * cur.faS[c]
				hSS[a][c] = 0.5 * dh * cur.ssS[a] * cur.ssS[c]
				cur.axFA[a][c] = hFA[a][c]
				cur.axSS[a][c] = hSS[a][c]
				if j > 0 {
					cur.axFA[a][c] += below.axFA[a][c] + prevFA[a][c]
					cur.axSS[a][c] += below.axSS[a][c] + prevSS[a][c]
				}
			}
		}
		prevFA, prevSS = hFA, hSS
	}
	for a := 0; a < 2; a++ {
		for c := 0; c < 2; c++ {
			m.tShape[N+1].axFA[a][c] = m.tShape[N].axFA[a][c] + prevFA[a][c]
			m.tShape[N+1].axSS[a][c] = m.tShape[N].axSS[a][c] + prevSS[a][c]
		}
	}
	// Generalized stiffness K = Σ EI φ''ᵢ φ''ⱼ Δh with tuners; generalized
	// mass of the tower alone for the damping frequencies.
	var mFA, mSS [2]float64
	for j := 0; j < N; j++ {
		x := m.hNodes[j] / L
		var cFA, cSS [2]float64
		for i := 0; i < 2; i++ {
			cFA[i] = shp(coefFA[i], x, L, 2)
			cSS[i] = shp(coefSS[i], x, L, 2)
			mFA[i] += m.tElmMass[j] * m.tShape[j+1].fa[i] * m.tShape[j+1].fa[i]
			mSS[i] += m.tElmMass[j] * m.tShape[j+1].ss[i] * m.tShape[j+1].ss[i]
		}
		for a := 0; a < 2; a++ {
			for c := 0; c < 2; c++ {
				m.kFA[a][c] += eiFA[j] * dh * cFA[a] * cFA[c]
				m.kSS[a][c] += eiSS[j] * dh * cSS[a] * cSS[c]
			}
		}
	}
	for a := 0; a < 2; a++ {
		for c := 0; c < 2; c++ {
			m.kFA[a][c] *= math.Sqrt(t.FAStTunr[a] * t.FAStTunr[c])
			m.kSS[a][c] *= math.Sqrt(t.SSStTunr[a] * t.SSStTunr[c])
		}
	}
	for i := 0; i < 2; i++ {
		if !(mFA[i] > 0) || !(mSS[i] > 0) {
			return fmt.Errorf("structure: tower mode %d has zero generalized mass (check TMassDen and mode shapes)", i+1)
		}
		m.mTFA[i] = mFA[i]
		m.FreqTFA[i] = math.Sqrt(m.kFA[i][i]/mFA[i]) / (2 * math.Pi)
		m.FreqTSS[i] = math.Sqrt(m.kSS[i][i]/mSS[i]) / (2 * math.Pi)
	}
	for a := 0; a < 2; a++ {
		for c := 0; c < 2; c++ {
			m.cFA[a][c] = 0.01 * t.TwrFADmp[c] * m.kFA[a][c] / (math.Pi * m.FreqTFA[c])
			m.cSS[a][c] = 0.01 * t.TwrSSDmp[c] * m.kSS[a][c] / (math.Pi * m.FreqTSS[c])
		}
	}
	return nil
}

// towerShapeAt evaluates the tower mode shapes at height h above the tower
// base: displacement and slope from the polynomials, axial shortening
// interpolated linearly between ElastoDyn's node values.
func (m *Model) towerShapeAt(h float64) towerShape {
	t := &m.p.Tower
	L := m.twrFlexL
	x := h / L
	var out towerShape
	coefFA := [2]*[5]float64{&t.TwFAM1Sh, &t.TwFAM2Sh}
	coefSS := [2]*[5]float64{&t.TwSSM1Sh, &t.TwSSM2Sh}
	for i := 0; i < 2; i++ {
		out.fa[i] = shp(coefFA[i], x, L, 0)
		out.faS[i] = shp(coefFA[i], x, L, 1)
		out.ss[i] = shp(coefSS[i], x, L, 0)
		out.ssS[i] = shp(coefSS[i], x, L, 1)
	}
	N := m.p.TwrNodes
	xs := make([]float64, N+2)
	copy(xs[1:], m.hNodes)
	xs[N+1] = L
	j := 1
	for j < N+1 && xs[j] < h {
		j++
	}
	f := 0.0
	if xs[j] > xs[j-1] {
		f = math.Max(0, math.Min(1, (h-xs[j-1])/(xs[j]-xs[j-1])))
	}
	a, b := &m.tShape[j-1], &m.tShape[j]
	for r := 0; r < 2; r++ {
		for c := 0; c < 2; c++ {
			out.axFA[r][c] = a.axFA[r][c] + f*(b.axFA[r][c]-a.axFA[r][c])
			out.axSS[r][c] = a.axSS[r][c] + f*(b.axSS[r][c]-a.axSS[r][c])
		}
	}
	return out
}

// TowerLoadStations returns the tower load-station heights above ground.
func (m *Model) TowerLoadStations() []float64 { return m.twrLoadElev }
