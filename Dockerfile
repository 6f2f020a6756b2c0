# One image for every app; the compose service (or `docker run ... <command>`) picks the app:
#   docker build -t notify .
#   docker run notify node --import tsx apps/worker/src/main.ts
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
# `node --import tsx` runs the app in this very process (no npx, no tsx CLI wrapper with a child
# process): SIGTERM reaches the app, so it drains, and a SIGKILL kills the app itself.
CMD ["node", "--import", "tsx", "apps/api/src/main.ts"]
