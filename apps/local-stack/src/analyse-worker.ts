// The backend's analysis thread, built as dist/analyse-worker.js for the bundled backend to start.
import "@overture/backend/analyse-worker";
