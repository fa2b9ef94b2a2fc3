FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY tsconfig.json ./
COPY src ./src
COPY cli ./cli
COPY bin ./bin
RUN npm ci --no-audit --no-fund && npm prune --omit=dev
ENV HOST=0.0.0.0 PORT=3000 NODE_ENV=production
EXPOSE 3000
USER node
CMD ["node", "dist/src/main.js"]
