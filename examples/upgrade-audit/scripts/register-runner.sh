#!/usr/bin/env bash
set -euo pipefail

gitlab-runner register \
  --non-interactive \
  --url "https://gitlab.example.com/" \
  --registration-token "$RUNNER_TOKEN" \
  --executor docker \
  --docker-image alpine:3.19 \
  --tag-list "docker,linux" \
  --locked=false

# Rotate the token every night.
curl --request POST --header "PRIVATE-TOKEN: $ADMIN_TOKEN" \
  "$CI_API_V4_URL/projects/$PROJECT_ID/runners/reset_registration_token"
