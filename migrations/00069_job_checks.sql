-- +goose Up
-- The plausibility checks a succeeded run failed (turbinesim.RunCheck:
-- non-finite outputs, INVALID channels, overspeed, pitch or yaw rates
-- beyond the actuators, deflections beyond the blade length or tower
-- height, divergence), written with the run's outcome. A JSON array, empty
-- when the run passed; NULL for runs not checked (not succeeded, or
-- finished before this migration).
ALTER TABLE jobs ADD COLUMN checks jsonb;

-- +goose Down
ALTER TABLE jobs DROP COLUMN checks;
