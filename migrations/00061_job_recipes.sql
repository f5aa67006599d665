-- +goose Up
-- A job's run recipe (issue 11): the input tree of a DLC batch run holds
-- the turbine's base deck only (one copy shared by every run of the
-- batch), and the recipe says how the worker makes the run from it: the
-- solver/dlc run spec (wind model, speed, seed, yaw, timing, turbine state)
-- as turbinesim.RunRecipe JSON. The worker generates the run's wind file
-- and deck in the attempt's scratch directory before it starts the solver
-- (db/runner/prepare.go), deterministically, so a retried attempt makes
-- the same files. NULL: the input tree is the run as it is.
ALTER TABLE jobs ADD COLUMN recipe jsonb;

-- +goose Down
ALTER TABLE jobs DROP COLUMN recipe;
