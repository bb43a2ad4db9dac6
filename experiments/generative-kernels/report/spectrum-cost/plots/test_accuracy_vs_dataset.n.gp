# kexp plot; run `gnuplot test_accuracy_vs_dataset.n.gp` here to redraw test_accuracy_vs_dataset.n.svg
set terminal svg size 1000,762 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_dataset.n.svg'
set title 'test accuracy against n_train: spectrum'
set xlabel 'n_train (training points)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'Each point: the cell with the highest test_accuracy over kernel.k.' at screen 0.01, screen 0.1050 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0761 left font ',12'
set label 102 'Drawn over one another, with the same errors: kernel_ridge_classifier (dual) and primal_ridge device=cpu precision=double' at screen 0.01, screen 0.0472 left font ',12'
set label 103 '(primal).' at screen 0.01, screen 0.0184 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('200' 200, '400' 400, '800' 800, '1600' 1600)
set logscale x
$line0 << EOD
200 0.9866666666666667 0.9751196612828742 0.9982136720504592
400 0.9733333333333333 0.967559830641437 0.9791068360252295
800 0.9950000000000001 0.9900000000000001 1
1600 0.9800000000000001 0.9725000000000001 0.9875
EOD
$line1 << EOD
200 0.9866666666666667 0.9751196612828742 0.9982136720504592
400 0.9733333333333333 0.967559830641437 0.9791068360252295
800 0.9950000000000001 0.9900000000000001 1
1600 0.9800000000000001 0.9725000000000001 0.9875
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge device=cpu precision=double (primal)'
