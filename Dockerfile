# One image for every app; the compose service (or `docker run ... <command>`) picks the app:
#   docker build -t notify .
#   docker run notify node apps/worker/dist/main.js
# Three stages: `build` compiles with every dependency (esbuild, typescript), `deps` installs the
# production dependencies alone, and the final image holds those plus the compiled dist/ folders:
# no dev dependency, no tsx, no TypeScript sources, and it runs as the unprivileged `node` user.

FROM node:20-slim AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false
# The whole workspace: `npm ci` needs every workspace's package.json that the lockfile names,
# and listing them one by one here would break the build each time a package is added.
COPY . .
# Then set aside what the next stages take: the manifests (for `npm ci --omit=dev`) and the
# compiled dist/ folders, each at its path in the workspace.
RUN npm ci --no-audit \
 && npm run build \
 && mkdir -p /out/manifests /out/dist \
 && cp package.json package-lock.json /out/manifests/ \
 && find apps packages -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} /out/manifests/ \; \
 && find apps packages -mindepth 2 -maxdepth 2 -type d -name dist -exec cp -r --parents {} /out/dist/ \;

FROM node:20-slim AS deps
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false
# Only the manifests: this layer is rebuilt when dependencies change, not on every code change.
COPY --from=build /out/manifests/ ./
# typescript arrives with --omit=dev only as valibot's optional peer (bull-board's dependency;
# types only, never loaded at run time): removed, so no compiler ships in the image.
RUN npm ci --omit=dev --no-audit \
 && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver \
 && npm cache clean --force

FROM node:20-slim
WORKDIR /app
# --enable-source-maps: stack traces name the TypeScript file and line (esbuild's maps carry
# the sources, so the image needs no src/).
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps
COPY --from=deps /app/ ./
COPY --from=build /out/dist/ ./
USER node

# The apps read their configuration from the environment (see each apps/*/src/config.ts).
# Plain `node` on the compiled entry, in this very process (no npm, no wrapper): SIGTERM
# reaches the app, so it drains, and a SIGKILL kills the app itself.
CMD ["node", "apps/api/dist/main.js"]
