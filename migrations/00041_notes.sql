-- +goose Up
-- Notes on turbines, jobs and studies (issue 10). A private note is seen by
-- its author only; an organization note by every member. The target is not
-- a foreign key (it points into one of three tables); the service checks
-- that it exists in the organization, and notes of a deleted target are
-- simply no longer listed anywhere.
CREATE TABLE notes (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    author_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    target_type     text NOT NULL CHECK (target_type IN ('turbine', 'job', 'study')),
    target_id       uuid NOT NULL,
    visibility      text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'organization')),
    body            text NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notes_target ON notes (organization_id, target_type, target_id, created_at);

-- +goose Down
DROP TABLE notes;
