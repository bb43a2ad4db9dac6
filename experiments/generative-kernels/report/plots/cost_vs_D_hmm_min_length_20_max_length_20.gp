# kexp plot; run `gnuplot cost_vs_D_hmm_min_length_20_max_length_20.gp` here to redraw cost_vs_D_hmm_min_length_20_max_length_20.svg
set terminal svg size 1000,806 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_D_hmm_min_length_20_max_length_20.svg'
set title 'time against the feature dimension D: hmm, n = 400 training points'
set xlabel 'D (feature dimension of the kernel''s map)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 10
set label 100 'hmm: max_length=20, min_length=20, model_seed=1, models=2, separation=0.25, standardize=false, states=3, symbols=4,' at screen 0.01, screen 0.1538 left font ',12'
set label 101 'test_fraction=0.2' at screen 0.01, screen 0.1266 left font ',12'
set label 102 'kernel_ridge_classifier and primal_ridge: λ changes no flop count (every value gives the same analytic count), so its 4 values' at screen 0.01, screen 0.0993 left font ',12'
set label 103 '({0.001, 0.01, 0.1, 1}) are one line, each point their mean, bars from the fastest to the slowest measurement of any.' at screen 0.01, screen 0.0720 left font ',12'
set label 104 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0447 left font ',12'
set label 105 'n = 400 is above every D drawn.' at screen 0.01, screen 0.0174 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('4' 4, '16' 16, '64' 64, '256' 256)
set logscale x
set logscale y
$line0 << EOD
4 0.0015056269166666668 0.001357058 0.002520296
16 0.006962644916666667 0.006711264 0.008486942
64 0.013799949166666665 0.013299128 0.015486029000000002
256 0.01363081983333333 0.012994587999999998 0.015775414
EOD
$line1 << EOD
4 0.00016288174999999999 0.000152924 0.00019037199999999999
16 0.00022639066666666667 0.000208031 0.000278693
64 0.0002589510833333333 0.000236359 0.00032990700000000005
256 0.0008510249166666666 0.0007550939999999999 0.001139841
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual) · spectrum normalize=true', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal) · spectrum normalize=true'
