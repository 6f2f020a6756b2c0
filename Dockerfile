# One image for every app; the compose service (or `docker run ... <command>`) picks the app:
#   docker build -t notify .
#   docker run notify node_modules/.bin/tsx apps/worker/src/main.ts
FROM node:20-slim

WORKDIR /app
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false

# The whole workspace first: `npm ci` needs every workspace's package.json that the lockfile
# names, and listing them one by one here would break the build each time a package is added.
COPY . .
RUN npm ci --omit=dev && npm cache clean --force

USER node

# The apps read their configuration from the environment (see each apps/*/src/config.ts).
# tsx is started directly, not through `npx`: npx does not pass SIGTERM on, so the app would
# never drain (in-flight jobs cut, stalled on the next worker). tsx relays SIGTERM/SIGINT to
# the app and returns its exit code.
CMD ["node_modules/.bin/tsx", "apps/api/src/main.ts"]
