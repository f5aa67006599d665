package structure

// RotorStaticLoad is a steady rotor load for PlatformStaticLoad: a force
// along the non-rotating shaft axis x_s (downwind: thrust) acting at the
// rotor apex, and a moment about that axis (the aerodynamic torque, positive
// in the direction of positive rotor speed), N and N·m.
type RotorStaticLoad struct {
	Thrust, Torque float64
}

// PlatformStaticLoad returns the static load of the whole turbine on its
// platform, about the displaced platform reference point in global axes:
// the weight of every mass of the model (platform, tower, yaw bearing,
// nacelle, hub, blades and tip masses) and the rotor load, for the
// platform displaced by disp (PtfmSurge, PtfmSway, PtfmHeave in m;
// PtfmRoll, PtfmPitch, PtfmYaw in rad) with every other DOF at zero — tower
// and blades undeflected, azimuth zero — and every blade at pitch (rad).
// This is the load ElastoDyn's equations of motion carry to the platform at
// rest, for a rigid turbine, which is what the static equilibrium of a
// floating platform balances against the hydrostatic and mooring loads.
func (m *Model) PlatformStaticLoad(disp [6]float64, pitch float64, rotor RotorStaticLoad) (force, moment [3]float64) {
	q := make([]float64, m.nDOF)
	if m.floating {
		q[DOFSg], q[DOFSw], q[DOFHv] = disp[0], disp[1], disp[2]
		q[DOFR], q[DOFP], q[DOFY] = disp[3], disp[4], disp[5]
	}
	pitches := make([]float64, m.p.NumBl)
	for k := range pitches {
		pitches[k] = pitch
	}
	c := m.newConfig()
	m.kinematics(q, pitches, c, kinAll)
	ref := m.ptfmRef0.add(vec3{q[DOFSg], q[DOFSw], q[DOFHv]})
	var F, M vec3
	g := vec3{0, 0, -m.p.Gravity}
	for i, mi := range m.ptMass {
		if mi == 0 {
			continue
		}
		f := g.scale(mi)
		F = F.add(f)
		M = M.add(c.pos[i].sub(ref).cross(f))
	}
	t := c.fs[0].scale(rotor.Thrust)
	F = F.add(t)
	M = M.add(c.apex.sub(ref).cross(t)).add(c.fs[0].scale(rotor.Torque))
	return [3]float64(F), [3]float64(M)
}

// PlatformOrientation returns the direction-cosine matrix of the platform
// rotated by roll, pitch and yaw (rad; ElastoDyn's PtfmRoll, PtfmPitch,
// PtfmYaw): rows are the platform axes in global coordinates, as
// Motions.PtfmOrient and the offshore modules' inputs hold it.
func PlatformOrientation(roll, pitch, yaw float64) [3][3]float64 {
	f := platformFrame(vec3{roll, pitch, yaw})
	return rows(&f)
}
